import StanzaQuery
import StanzaqKit

extension StanzaqCommand {
    /// `--log` may stand alone (`--log`) or name a format (`--log=prosody`): a bare
    /// `--log` becomes `--log=auto` before parsing, unless it is another option's value.
    /// A bare `--log` followed by a format's name is an error: the name would be
    /// read as the query, and a user who writes it means the format. `--redact`
    /// likewise: bare, it is `--redact=auth`; followed by a list of kinds, an error.
    /// `--since`, `--until` and `--tz` take the next argument whatever it is (`-10m`, `-05:00`).
    static func normalising(_ arguments: [String]) throws(Diagnostic) -> [String] {
        var result: [String] = []
        var afterTerminator = false, joined = false
        for (index, argument) in arguments.enumerated() {
            let isValue = result.last.map(takesValue) ?? false
            if joined {
                joined = false
            } else if !afterTerminator, ["--since", "--until", "--tz"].contains(argument), !isValue, index + 1 < arguments.count {
                result.append(argument + "=" + arguments[index + 1])
                joined = true
            } else if !afterTerminator, argument == "--log", !isValue {
                if index + 1 < arguments.count, let format = LogFormat(rawValue: arguments[index + 1]) {
                    throw Diagnostic("--log takes its format after '=': --log=\(format.rawValue) "
                                     + "(a bare --log detects the format, and '\(format.rawValue)' would be the query)")
                }
                result.append("--log=" + InputOptions.detectedLogFormat)
            } else if !afterTerminator, argument == "--redact", !isValue {
                if index + 1 < arguments.count, (try? RedactionKinds(list: arguments[index + 1])) != nil {
                    let word = arguments[index + 1]
                    throw Diagnostic("--redact takes its list after '=': --redact=\(word) (a bare --redact "
                                     + "would take '\(word)' for the query; to query it, write --redact=auth \(word))")
                }
                result.append("--redact=" + FormatOptions.defaultRedaction)
            } else if !afterTerminator, !isValue, let (option, number) = attachedNumber(argument) {
                // grep's `-C2`, `-m1`: the number attached to its option.
                result.append(option)
                result.append(number)
            } else {
                if argument == "--" { afterTerminator = true }
                result.append(argument)
            }
        }
        return result
    }

    /// Whether `argument` is an option that takes a value as the next argument.
    private static func takesValue(_ argument: String) -> Bool {
        declaredOptionsByName[argument]?.value != nil
    }

    /// Whether `-V` or `--version` is given as an option (not as another
    /// option's value, nor after `--`): the version is printed whatever else is
    /// given, as ArgumentParser does for its own `--version`.
    static func requestsVersion(_ arguments: [String]) -> Bool {
        var previous: String?
        for argument in arguments {
            if argument == "--" { return false }
            if argument == "-V" || argument == "--version", !(previous.map(takesValue) ?? false) { return true }
            previous = argument
        }
        return false
    }

    /// The arguments to parse, and the operands at their end that can be taken
    /// out first: ArgumentParser takes quadratic time over positionals (each one
    /// copies all before it, which a command line of many files feels).
    /// Taken out are those of the trailing run of arguments that do not start
    /// with `-` but its first two, since every option takes at most one value:
    /// the first may be an option's value, the second the query; the rest are
    /// files. Short runs are left to the parser.
    static func splittingTrailingOperands(_ arguments: [String]) -> (arguments: [String], operands: [String]) {
        var start = arguments.endIndex
        while start > arguments.startIndex && !arguments[start - 1].hasPrefix("-") { start -= 1 }
        let cut = start + 2
        guard arguments.endIndex - cut > 16 else { return (arguments, []) }
        return (Array(arguments[..<cut]), Array(arguments[cut...]))
    }

    /// `-A2`, `-B2`, `-C2`, `-m2`, as grep takes them: the option and its number.
    private static func attachedNumber(_ argument: String) -> (String, String)? {
        guard argument.count > 2, ["-A", "-B", "-C", "-m"].contains(String(argument.prefix(2))),
              argument.dropFirst(2).allSatisfy(\.isASCII), argument.dropFirst(2).allSatisfy(\.isNumber) else { return nil }
        return (String(argument.prefix(2)), String(argument.dropFirst(2)))
    }
}
