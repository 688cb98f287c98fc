import ArgumentParser
import StanzaQuery
import StanzaqKit

extension LogDirection: ExpressibleByArgument {}

/// The options that say what is read and how: directories, logs and their
/// fields, following a file, threads (stanzaq(1), OPTIONS, LOGS).
struct InputOptions: ParsableArguments {
    @Flag(name: [.customShort("r"), .customLong("recursive")],
          help: "Search the files under directory operands (or the working directory), in name order; links inside are not followed.")
    var recursive = false

    @Option(name: [.customShort("g"), .customLong("glob")], parsing: .unconditionalSingleValue,
            help: ArgumentHelp("With -r: search only the files that match GLOB (!GLOB: skip them); repeatable, the last match decides.",
                               valueName: "GLOB"))
    var globs: [String] = []

    @Option(name: .customLong("log"), help: ArgumentHelp(
        "Read the input as a log: --log, or --log=FORMAT (\(LogFormat.allCases.map(\.rawValue).joined(separator: ", "))).",
        valueName: "FORMAT"), completion: .list(LogFormat.allCases.map(\.rawValue)))
    var log: String?

    @Flag(name: .customLong("xml"), help: "Read the input as XML, never as a log.")
    var xml = false

    @Option(name: .customLong("envelope"), help: ArgumentHelp(
        "Read the input as a log inside this envelope (\(Envelope.allCases.map(\.rawValue).joined(separator: ", "))), or none; default: recognised.",
        valueName: "NAME"), completion: .list(Envelope.allCases.map(\.rawValue) + ["none"]))
    var envelope: String?

    @Option(help: ArgumentHelp("Only the stanzas a log shows received (in) or sent (out).", valueName: "in|out"),
            completion: .list(["in", "out"]))
    var direction: LogDirection?

    @Option(help: ArgumentHelp("Only the stanzas a log shows at or after TIME: ISO 8601 (2026-11-23T09:30Z), the log's own form, @SECONDS, or -10m, -2h, -1d (before the last record).",
                               valueName: "TIME"), completion: .list(["-10m", "-1h", "-1d"]))
    var since: String?

    @Option(help: ArgumentHelp("Only the stanzas a log shows at or before TIME (as --since).", valueName: "TIME"),
            completion: .list(["-10m", "-1h", "-1d"]))
    var until: String?

    @Option(name: .customLong("tz"), help: ArgumentHelp(
        "The zone of the times a log writes without one: UTC, +HH:MM, -HH:MM or a zone's name (default: the local zone).", valueName: "ZONE"),
        completion: .list(["UTC"]))
    var timeZone: String?

    @Option(name: .customLong("time-format"), help: ArgumentHelp(
        "Print a log's times (--fields time) as the log writes them (log, the default) or as ISO 8601 in the --tz zone (iso).",
        valueName: "log|iso"), completion: .list(["log", "iso"]))
    var timeFormat: String?

    @Option(help: ArgumentHelp("Print these fields of stanzas read from a log: line, time, direction, session, jid (bound in the session), or an archive column (comma-separated).", valueName: "LIST"),
            completion: .list(LogFieldName.known.map(\.key)))
    var fields: String?

    @Flag(name: .customLong("line-number"), help: "Print the line where each stanza starts, for vim +N (the same as --fields line); on each line of a value or stanza.")
    var lineNumber = false

    @Flag(help: "Follow a growing file as tail -F does: from its end, across rotation, line-buffered.")
    var follow = false

    @Option(help: ArgumentHelp("Search with N threads (default: the number of CPUs); 1 reads strictly in order. The output is the same.",
                               valueName: "N"))
    var threads: Int?

    @Flag(name: .customLong("read-all"),
          help: "Read every record of a log, even those without the names and values every result needs: damage anywhere is reported.")
    var readAll = false

    @Flag(help: "After the output, write on standard error what was searched: inputs, stanzas read and with results, damage reports, bytes, time.")
    var stats = false

    /// `--log` without a value: the format is detected.
    static let detectedLogFormat = "auto"

    func validate() throws {
        if xml && log != nil { throw ValidationError("choose one of --log and --xml") }
        if let log, log != Self.detectedLogFormat, LogFormat(rawValue: log) == nil {
            let names = LogFormat.allCases.map(\.rawValue)
            throw ValidationError("unknown log format '\(log)' (one of: \(names.joined(separator: ", ")))"
                                  + (Self.suggestion(for: log, among: names).map { ". Did you mean '\($0)'?" } ?? ""))
        }
        if let envelope, envelope != "none", Envelope(rawValue: envelope) == nil {
            throw ValidationError("unknown envelope '\(envelope)' (one of: \(Envelope.allCases.map(\.rawValue).joined(separator: ", ")), none)")
        }
        if xml && envelope != nil && envelope != "none" { throw ValidationError("choose one of --envelope and --xml") }
        if let fields, fields.split(separator: ",", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            throw ValidationError("--fields: an empty field name in '\(fields)'")
        }
        try validateFieldNames()
        try validateTimes()
        if let threads, threads < 1 { throw ValidationError("--threads: N must be at least 1") }
    }

    /// The options of a search through directories (stanzaq(1), `-r`, `-g`): not
    /// checked for the REPL, which refuses them.
    func validateWalk() throws {
        if !globs.isEmpty && !recursive { throw ValidationError("-g filters the files -r finds: add -r") }
        _ = try globFilter()
        if recursive && follow { throw ValidationError("--follow follows one file, not a directory (-r)") }
    }

    /// Checks the names of `--fields` (stanzaq(1), `--fields`): a name that is not
    /// line, time, direction, session or jid is an archive row's column, which is known
    /// only from the input; it is an error where no input can have it (`--xml`, a
    /// log format that is not archive rows) or where it is close to a field's name
    /// (`dir`, `sesion`: a typo, unless `--log=json` or `--log=tsv` says archive rows).
    private func validateFieldNames() throws {
        let known = LogFieldName.known.map(\.key)
        let archive = log == LogFormat.json.rawValue || log == LogFormat.tsv.rawValue
        let notArchive = xml || (log != nil && log != Self.detectedLogFormat && !archive)
        for name in (fields ?? "").split(separator: ",").map(String.init) where !known.contains(name) && !archive {
            let suggestion = Self.suggestion(for: name, among: known)
            guard notArchive || suggestion != nil else { continue }
            throw ValidationError("--fields: unknown field '\(name)' (the fields are line, time, direction, session and jid, "
                                  + "and the columns of archive rows)" + (suggestion.map { ". Did you mean '\($0)'?" } ?? ""))
        }
    }

    /// The name `name` is likely a typo of (``NameSuggestion``).
    static func suggestion(for name: String, among names: [String]) -> String? {
        NameSuggestion.suggestion(for: name, among: names)
    }

    /// The `-g` globs, compiled.
    func globFilter() throws -> GlobFilter {
        do {
            return try GlobFilter(globs)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// How to read the inputs: `--xml`, `--log[=FORMAT]`, or recognise each.
    var inputKind: InputKind? {
        if xml { return .xml }
        guard let log else { return nil }
        return .log(LogFormat(rawValue: log))
    }

    /// The envelope named (`--envelope=NAME`), and whether envelopes are recognised.
    var envelopeChoice: (envelope: Envelope?, recognised: Bool) {
        guard let envelope else { return (nil, !xml) }
        return (Envelope(rawValue: envelope), false)
    }

    /// The fields to print with each record.
    var fieldNames: [LogFieldName] {
        var names = (fields ?? "").split(separator: ",").map { LogFieldName(String($0)) }
        if lineNumber && !names.contains(.line) { names.insert(.line, at: 0) }
        return names
    }
}
