import ArgumentParser
import StanzaQuery
import StanzaqKit

extension StanzaqCommand {
    /// `--redact[=WHAT] --rewrite [FILE]` (stanzaq(1), `--rewrite`): the one
    /// input written back redacted, on standard output. Every operand is the
    /// file: there is no query, and the options that choose or print results
    /// do not apply.
    func rewrite(_ paths: [String], in environment: CommandEnvironment) throws -> Int32 {
        let given = optionsNotForRewriting
        if !given.isEmpty {
            throw ValidationError("\(given.joined(separator: ", ")) \(given.count == 1 ? "does" : "do") not apply to --rewrite, "
                                  + "which writes the input back whole")
        }
        guard paths.count <= 1 else { throw ValidationError("--rewrite writes one input back: give one FILE (or none: standard input)") }
        let redactor = Redactor(kinds: try format.redaction ?? .auth)
        do {
            return try XMLRewrite.run(path: paths.first ?? "-", directory: environment.directory, standardInput: environment.standardInput,
                                      redactor: redactor, defaultNamespace: query.defaultNamespace,
                                      output: environment.output, diagnostics: environment.diagnostics)
        } catch OutputError.brokenPipe {
            return 0
        } catch {
            environment.diagnostics.report(error.diagnostic)
            return 2
        }
    }

    /// The options given that choose, count or print results, or read a log:
    /// none applies to `--rewrite`, which takes only `--redact`, `-N` and `--xml`.
    private var optionsNotForRewriting: [String] {
        let given: [(Bool, String)] = [
            (!query.queries.isEmpty, "-e/--query"), (!query.wheres.isEmpty, "--where"), (query.each != nil, "--each"),
            (query.explain, "--explain"), (mode.report != .results, "-q, -c, -s, -l or -L"), (mode.invert, "-v/--invert"),
            (mode.maxCount != nil, "-m/--max-count"), (mode.stanzaContext != nil, "-A, -B or -C"), (mode.pair, "--pair"),
            (query.first, "--first"), (format.format != nil, "-o/--output"), (format.withFilename, "-H/--with-filename"),
            (format.stanzaNumber, "-n/--stanza-number"), (format.null || format.join, "-0 or -j"), (format.header, "--header"),
            (format.pretty || format.compact, "--pretty or --compact"), (input.log != nil, "--log"),
            (input.envelope != nil, "--envelope"), (input.direction != nil, "--direction"),
            (input.since != nil || input.until != nil, "--since or --until"), (input.timeZone != nil, "--tz"),
            (input.timeFormat != nil, "--time-format"), (input.fields != nil || input.lineNumber, "--fields"),
            (input.follow, "--follow"), (input.recursive || !input.globs.isEmpty, "-r or -g"),
        ]
        return given.filter(\.0).map(\.1)
    }
}
