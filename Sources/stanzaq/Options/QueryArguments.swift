import ArgumentParser
import StanzaQuery

/// The options that say what is asked of each stanza: the queries, the rows
/// they make, their format arguments, and how they are compiled (stanzaq(1), OPTIONS).
struct QueryArguments: ParsableArguments {
    @Option(name: [.customShort("e"), .customLong("query")], parsing: .unconditionalSingleValue,
            help: ArgumentHelp("A query; repeat for several (one TSV row or JSON array per stanza). NAME=QUERY names the column (JSON objects, --header).", valueName: "[NAME=]QUERY"))
    var queries: [String] = []

    @Option(name: .customLong("each"), parsing: .unconditional,
            help: ArgumentHelp("One row per element PATH selects in each stanza, every query read from that element (--each '{jabber:iq:roster}query/item' -e @jid -e @name).", valueName: "PATH"))
    var each: String?

    @Option(name: .customLong("where"), parsing: .unconditionalSingleValue,
            help: ArgumentHelp("Only the stanzas (with --each, the elements) where QUERY has a result, as jq's select; repeat: every one must.", valueName: "QUERY"))
    var wheres: [String] = []

    @Option(name: [.customShort("a"), .customLong("arg")], parsing: .unconditionalSingleValue,
            help: ArgumentHelp("A format argument for %@, %s, %d… in attribute filters; repeat, in order.", valueName: "VALUE"))
    var arguments: [String] = []

    @Flag(help: "Per stanza, only the first result of each query.")
    var first = false

    @Option(name: [.customShort("N"), .customLong("default-namespace")], help: ArgumentHelp("Read stanzas with no namespace in scope as if NS were the default.", valueName: "NS"))
    var defaultNamespace: String?

    @Option(name: .customLong("ns"), parsing: .unconditionalSingleValue,
            help: ArgumentHelp("Bind PREFIX for prefixed names in queries (stream:features, @p:a); repeatable.", valueName: "PREFIX=URI"))
    var namespaceAliases: [String] = []

    @Flag(help: "Conversions must succeed on the whole value; a failure is an error for that stanza.")
    var strict = false

    @Flag(help: "Print the parsed query as a readable outline and evaluate nothing.")
    var explain = false

    @Flag(help: "'=' and '~' filters compare case (Monal ignores it).")
    var caseSensitive = false

    @Flag(help: "Reject stanzaq's extensions of Monal's language (**, text filters, %@ in '~'), for queries meant for Monal or Prosody.")
    var monal = false

    func validate() throws {
        if monal && caseSensitive {
            throw ValidationError("--case-sensitive is a stanzaq extension, which --monal rejects (Monal's '=' and '~' ignore case)")
        }
        _ = try namespaces()
    }

    /// How queries are compiled.
    var queryOptions: QueryOptions {
        // --ns is checked in validate().
        QueryOptions(caseSensitive: caseSensitive, extensions: !monal, namespaces: (try? namespaces()) ?? [:])
    }

    /// The `--ns PREFIX=URI` aliases.
    func namespaces() throws -> [String: String] {
        try parseNamespaceAliases(namespaceAliases)
    }
}
