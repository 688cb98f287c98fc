#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
#if canImport(StanzaXML)
import StanzaXML
#endif
#if canImport(StanzaLogs)
import StanzaLogs
#endif

/// A path segment ready to test elements: names and namespaces compared
/// directly, filter values bound to their arguments, regexes compiled.
struct CompiledSelector {
    let syntax: QuerySyntax.Selector
    /// The namespace test, a prefix resolved when `--ns` names it.
    let namespace: QuerySyntax.NamespaceTest
    let filters: [CompiledFilter]

    /// - Parameter inherited: the namespace an omitted `{ns}` stands for;
    ///   `nil` when any namespace matches (a rooted query on a stanza).
    /// - Throws: when matching a `~` filter's regular expression is abandoned
    ///   (it took too long or backtracked too much for `limits`, see ``RegexMatcher/match(_:limits:)``).
    func matches(_ element: Element, inherited: String?, limits: EvaluationLimits) throws(EvaluationError) -> Bool {
        switch syntax.name {
        case .any, .unnamed: break
        case .named(let name): if element.name != name { return false }
        case .notNamed(let name): if element.name == name { return false }
        }
        switch namespace {
        case .any: break
        case .uri(let uri): if element.namespace != uri { return false }
        case .inherited: if let inherited, element.namespace != inherited { return false }
        case .prefix(let prefix):
            // Resolved where the element is, as the prefix of `@p:name` is; unbound: no match.
            guard let uri = element.namespaceURI(forPrefix: prefix), element.namespace == uri else { return false }
        }
        for filter in filters where !(try filter.matches(element, limits: limits)) { return false }
        return true
    }
}

extension CompiledSelector {
    /// The selector with matchers of its own (see ``Query/copyForAnotherThread()``).
    func copyForAnotherThread() -> CompiledSelector {
        CompiledSelector(syntax: syntax, namespace: namespace, filters: filters.map { filter in
            switch filter.test {
            case .equals(let matcher): return CompiledFilter(subject: filter.subject, test: .equals(CaselessMatcher(matcher.value)))
            case .matches(let regex, let abandoned, _):
                return CompiledFilter(subject: filter.subject, test: .matches(regex.copyForAnotherThread(), abandoned, RegexAnswers()))
            case .equalsExactly: return filter
            }
        })
    }
}

struct CompiledFilter {
    let subject: QuerySyntax.FilterSubject
    let test: Test

    enum Test {
        case equals(CaselessMatcher)
        /// `=` with `--case-sensitive`.
        case equalsExactly(ExactMatcher)
        /// `~`: this thread's matcher, the count of its abandoned matches
        /// (shared by every evaluation of the query) and the answers for
        /// values seen last (this thread's copy of the query's).
        case matches(RegexMatcher, AbandonedMatches, RegexAnswers)
    }

    func matches(_ element: Element, limits: EvaluationLimits) throws(EvaluationError) -> Bool {
        switch subject {
        case .attribute(let attribute):
            guard let value = element.value(of: attribute) else { return false }
            return try matches(value, of: element, limits: limits)
        case .text:
            guard let value = element.text else { return false }
            return try matches(value, of: element, limits: limits)
        case .anyAttribute:
            // The attributes as `@@` gives them: the namespace first, as `xmlns`.
            if !element.namespace.isEmpty, try matches(element.namespace, of: element, limits: limits) { return true }
            for attribute in element.attributes where try matches(attribute.value, of: element, limits: limits) { return true }
            return false
        }
    }

    /// Whether one value of the element (an attribute's, its text) passes the test.
    private func matches(_ value: String, of element: Element, limits: EvaluationLimits) throws(EvaluationError) -> Bool {
        switch test {
        case .equals(let matcher): return matcher.matches(value)
        case .equalsExactly(let matcher): return matcher.matches(value)
        case .matches(let regex, let abandoned, let answers):
            let limit = limits.abandonedMatchesPerFilter
            if abandoned.count >= limit {
                // Given up: each match could cost as much again, and input that
                // made it fail this often is likely to go on doing so.
                throw EvaluationError("the regular expression '\(regex.regex.pattern)' was given up after \(limit) abandoned "
                                      + "matches (\(subject.written) of <\(element.qualifiedName)>)",
                                      reportedBefore: true)
            }
            if let known = answers.answer(for: value) { return known }
            switch regex.match(value, limits: limits) {
            case .match:
                answers.remember(value, true)
                return true
            case .noMatch:
                answers.remember(value, false)
                return false
            case .abandoned(let reason):
                // Neither a match nor a miss: the stanza's answer is unknown, so it
                // gets an error (and no result) rather than a guess.
                let message = "the regular expression '\(regex.regex.pattern)' \(reason) on \(subject.written) "
                    + "of <\(element.qualifiedName)>"
                if abandoned.increment() == limit {
                    throw EvaluationError(message + " (matching abandoned \(limit) times: given up for the rest of the "
                                          + "input, where stanzas that need it have no result and no message)")
                }
                throw EvaluationError(message + " (matching abandoned)")
            }
        }
    }
}

/// The answers of one `~` filter for the last few short values it was
/// matched against: attribute values such as `type='chat'` repeat from stanza
/// to stanza, and a comparison costs far less than a match. Only matches and
/// misses are kept, never an abandoned match, so that the answers are the ones
/// matching gives. One per thread (not locked).
final class RegexAnswers {
    private var values: [String] = []
    private var answers: [Bool] = []
    private var next = 0
    /// How many values are kept, and how long one may be (in UTF-8 bytes).
    private static let capacity = 8
    private static let longest = 64

    func answer(for value: String) -> Bool? {
        for index in values.indices where Self.sameBytes(values[index], value) { return answers[index] }
        return nil
    }

    /// Byte for byte: `==` of strings compares canonically equivalent text equal
    /// (`é` precomposed or not), which a regular expression may not match alike.
    private static func sameBytes(_ first: String, _ second: String) -> Bool {
        guard first.utf8.count == second.utf8.count else { return false }
        var first = first, second = second
        return first.withUTF8 { a in second.withUTF8 { b in a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 } }
    }

    func remember(_ value: String, _ answer: Bool) {
        guard value.utf8.count <= Self.longest else { return }
        if values.count < Self.capacity {
            values.append(value)
            answers.append(answer)
        } else {
            values[next] = value
            answers[next] = answer
            next = (next + 1) % Self.capacity
        }
    }
}

/// How many matches of one `~` filter have been abandoned, over every
/// evaluation of its query (``EvaluationLimits/abandonedMatchesPerFilter``).
/// A class, so that copies of the compiled query share it; locked, so that
/// evaluations on several threads may.
final class AbandonedMatches: @unchecked Sendable {
    private let value = Atomic<Int>(0)

    var count: Int { value.load(ordering: .relaxed) }

    /// Counts one more; returns the new count.
    func increment() -> Int { value.add(1, ordering: .relaxed).newValue }
}

extension QuerySyntax.FilterSubject {
    /// What a message calls it: "attribute 'from'", "the text".
    var written: String {
        switch self {
        case .attribute(let attribute): return "attribute '\(attribute.written)'"
        case .text: return "the text"
        case .anyAttribute: return "an attribute"
        }
    }
}

extension QuerySyntax.AttributeName {
    /// The name as the query wrote it: `name`, `prefix:name` or `{uri}name`.
    var written: String {
        switch namespace {
        case .none: return name
        case .prefix(let prefix): return prefix + ":" + name
        case .uri(let uri): return "{" + uri + "}" + name
        }
    }
}

extension Element {
    /// The attribute as an `@` extraction or a filter names it; `nil` if absent.
    /// The element's namespace is its attribute `xmlns`, as in Monal's and
    /// Prosody's models (absent in the empty namespace, as in Prosody's).
    func value(of attribute: QuerySyntax.AttributeName) -> String? {
        let namespace: String
        switch attribute.namespace {
        case .none:
            if attribute.name == "xmlns" { return self.namespace.isEmpty ? nil : self.namespace }
            namespace = ""
        case .uri(let uri): namespace = uri
        case .prefix(let prefix):
            guard let uri = namespaceURI(forPrefix: prefix) else { return nil }
            namespace = uri
        }
        return self.attribute(attribute.name, namespace: namespace)
    }
}
