import ArgumentParser
import StanzaQuery
import StanzaqKit

enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

extension OutputFormat: ExpressibleByArgument {}

/// The options that say how records are written: their format, their
/// prefixes, their separators, colour and buffering (stanzaq(1), OUTPUT).
struct FormatOptions: ParsableArguments {
    @Flag(help: "Print a header row (the columns' names) before the first TSV row.")
    var header = false

    @Option(name: [.customShort("o"), .customLong("output")], help: ArgumentHelp("Output format: text, json (JSON Lines) or tsv.", valueName: "FORMAT"))
    var output: OutputFormat?

    @Flag(name: .customLong("json"), help: "The same as -o json.")
    var json = false

    @Flag(name: [.customShort("0"), .customLong("null")], help: "End records with NUL instead of newline.")
    var null = false

    @Flag(name: [.customShort("j"), .customLong("join")], help: "End records with nothing (for raw output such as -j …|base64 > file).")
    var join = false

    @Flag(name: [.customShort("H"), .customLong("with-filename")], help: "Prefix each record with its file name.")
    var withFilename = false

    @Flag(name: [.customShort("n"), .customLong("stanza-number")], help: "Prefix each record with its stanza number (from 1, per input).")
    var stanzaNumber = false

    @Flag(help: "Write the records of all inputs in the order of their stanzas' times (a log's), at the end; with -H.")
    var merge = false

    @Flag(help: "Print datetimes as seconds since 1970.")
    var epoch = false

    @Flag(help: "Indent XML output.")
    var pretty = false

    @Flag(help: "Write each element on one line (-s: one stanza a line): whitespace between elements dropped, newlines in text as &#10;.")
    var compact = false

    @Option(help: ArgumentHelp("Colour XML and prefixes: auto (on a terminal, unless NO_COLOR is set), always or never.", valueName: "WHEN"))
    var color: ColorChoice?

    @Flag(help: "Flush the output after each stanza (the default on a terminal).")
    var lineBuffered = false

    @Option(name: .customLong("redact"), help: ArgumentHelp(
        "Remove secrets from every stanza before it is searched and printed: a bare --redact removes SASL payloads and passwords; --redact=WHAT, a comma-separated list of auth, bodies (what people write), jids (pseudonyms for JIDs) or all.",
        valueName: "WHAT"), completion: .list(RedactionKinds.names.map(\.name)))
    var redact: String?

    @Flag(help: "With --redact: write the input (one XML file or log) back on standard output, every byte kept but what is redacted.")
    var rewrite = false

    func validate() throws {
        if null && join { throw ValidationError("choose one of -0 and -j") }
        if compact && pretty { throw ValidationError("choose one of --compact and --pretty") }
        if header && isJSON {
            throw ValidationError("--header is for TSV; JSON rows are objects keyed by the names of -e NAME=QUERY")
        }
        if json, let output, output != .json { throw ValidationError("--json contradicts -o \(output.rawValue)") }
        _ = try redaction
        if rewrite && redact == nil { throw ValidationError("--rewrite goes with --redact: it writes the input back redacted") }
    }

    /// `--redact` alone: the kind removed.
    static let defaultRedaction = "auth"

    /// What `--redact[=WHAT]` removes; `nil`: not given. Throws for a name it does not know.
    var redaction: RedactionKinds? {
        get throws {
            guard let redact else { return nil }
            do {
                return try RedactionKinds(list: redact)
            } catch {
                let names = RedactionKinds.names.map(\.name)
                if error.name.isEmpty {
                    throw ValidationError("--redact: an empty kind in '\(redact)' (one of: \(names.joined(separator: ", ")))")
                }
                throw ValidationError("--redact: unknown kind '\(error.name)' (one of: \(names.joined(separator: ", ")))"
                                      + (NameSuggestion.suggestion(for: error.name, among: names).map { ". Did you mean '\($0)'?" } ?? ""))
            }
        }
    }

    /// The format asked for (`-o`, `--json`); `nil`: chosen by what is printed.
    var format: OutputFormat? {
        output ?? (json ? .json : nil)
    }

    /// Whether JSON is asked for.
    var isJSON: Bool {
        format == .json
    }
}
