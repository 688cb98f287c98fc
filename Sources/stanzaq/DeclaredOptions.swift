import ArgumentParser
import StanzaQuery
import StanzaqKit

// The command's options as a table, for the parser that runs without
// ArgumentParser (QuickParsing.swift). Each line repeats an option's names
// from its declaration in Options/; DeclaredOptionsTests fails when a line and
// its declaration differ in names, in taking a value or in how the value
// parses, so the table cannot drift from what ArgumentParser parses. An option
// left out of the table is still right: a command line with it is parsed by
// ArgumentParser.

/// One option of the command as the quick parser knows it.
struct DeclaredOption: Sendable {
    /// `-c` and `--count`, as declared.
    let names: [String]
    /// How the option's value is taken, or `nil` for a flag.
    let value: ValueTaking?
    /// Each value is kept (`-e Q -e Q`), not replaced by the next.
    var repeats = false
    /// Sets the option in the command: the value is `nil` for a flag. `false`
    /// when the value is not one the option's type parses (ArgumentParser then
    /// says why).
    let set: @Sendable (inout StanzaqCommand, String?) -> Bool

    enum ValueTaking: Sendable {
        /// The next argument, unless it looks like an option (ArgumentParser's `.next`).
        case next
        /// The next argument whatever it is (`.unconditional`, `.unconditionalSingleValue`).
        case unconditional
    }

    /// A flag that is `true` when given.
    static func flag(_ names: [String], _ path: WritableKeyPath<StanzaqCommand, Bool> & Sendable) -> DeclaredOption {
        DeclaredOption(names: names, value: nil) { command, _ in
            command[keyPath: path] = true
            return true
        }
    }

    /// An option that takes one value; a later one replaces it.
    static func option<Value: ExpressibleByArgument>(
        _ names: [String], taking: ValueTaking = .next, _ path: WritableKeyPath<StanzaqCommand, Value?> & Sendable
    ) -> DeclaredOption {
        DeclaredOption(names: names, value: taking) { command, argument in
            guard let argument, let value = Value(argument: argument) else { return false }
            command[keyPath: path] = value
            return true
        }
    }

    /// An option that may be repeated, each value appended.
    static func repeated<Value: ExpressibleByArgument>(
        _ names: [String], taking: ValueTaking = .next, _ path: WritableKeyPath<StanzaqCommand, [Value]> & Sendable
    ) -> DeclaredOption {
        DeclaredOption(names: names, value: taking, repeats: true) { command, argument in
            guard let argument, let value = Value(argument: argument) else { return false }
            command[keyPath: path].append(value)
            return true
        }
    }
}

extension StanzaqCommand {
    /// Every option of the command but `--help`, `--version` and
    /// `--generate-completion-script`, which are answered before parsing or by
    /// ArgumentParser.
    static let declaredOptions: [DeclaredOption] = [
        // QueryArguments
        .repeated(["-e", "--query"], taking: .unconditional, \.query.queries),
        .option(["--each"], taking: .unconditional, \.query.each),
        .repeated(["--where"], taking: .unconditional, \.query.wheres),
        .repeated(["-a", "--arg"], taking: .unconditional, \.query.arguments),
        .flag(["--first"], \.query.first),
        .option(["-N", "--default-namespace"], \.query.defaultNamespace),
        .repeated(["--ns"], taking: .unconditional, \.query.namespaceAliases),
        .flag(["--strict"], \.query.strict),
        .flag(["--explain"], \.query.explain),
        .flag(["--case-sensitive"], \.query.caseSensitive),
        .flag(["--monal"], \.query.monal),
        // ModeOptions
        .flag(["-q", "--quiet"], \.mode.quiet),
        .flag(["-c", "--count"], \.mode.count),
        .flag(["-s", "--select"], \.mode.select),
        .flag(["-l", "--files-with-matches"], \.mode.filesWithMatches),
        .flag(["-L", "--files-without-match"], \.mode.filesWithoutMatch),
        .option(["-m", "--max-count"], \.mode.maxCount),
        .option(["-A", "--after-context"], \.mode.afterContext),
        .option(["-B", "--before-context"], \.mode.beforeContext),
        .option(["-C", "--context"], \.mode.context),
        .flag(["--pair"], \.mode.pair),
        .flag(["--unanswered"], \.mode.unanswered),
        .flag(["-v", "--invert"], \.mode.invert),
        .flag(["-i", "--interactive"], \.mode.interactive),
        // FormatOptions
        .flag(["--header"], \.format.header),
        .option(["-o", "--output"], \.format.output),
        .flag(["--json"], \.format.json),
        .flag(["-0", "--null"], \.format.null),
        .flag(["-j", "--join"], \.format.join),
        .flag(["-H", "--with-filename"], \.format.withFilename),
        .flag(["-n", "--stanza-number"], \.format.stanzaNumber),
        .flag(["--merge"], \.format.merge),
        .flag(["--epoch"], \.format.epoch),
        .flag(["--pretty"], \.format.pretty),
        .flag(["--compact"], \.format.compact),
        .option(["--color"], \.format.color),
        .flag(["--line-buffered"], \.format.lineBuffered),
        .option(["--redact"], \.format.redact),
        .flag(["--rewrite"], \.format.rewrite),
        // InputOptions
        .flag(["-r", "--recursive"], \.input.recursive),
        .repeated(["-g", "--glob"], taking: .unconditional, \.input.globs),
        .option(["--log"], \.input.log),
        .flag(["--xml"], \.input.xml),
        .option(["--envelope"], \.input.envelope),
        .option(["--direction"], \.input.direction),
        .option(["--since"], \.input.since),
        .option(["--until"], \.input.until),
        .option(["--tz"], \.input.timeZone),
        .option(["--time-format"], \.input.timeFormat),
        .option(["--fields"], \.input.fields),
        .flag(["--line-number"], \.input.lineNumber),
        .flag(["--follow"], \.input.follow),
        .option(["--threads"], \.input.threads),
        .flag(["--read-all"], \.input.readAll),
        .flag(["--stats"], \.input.stats),
    ]

    /// The declared options by each of their names.
    static let declaredOptionsByName: [String: DeclaredOption] = {
        var byName = [String: DeclaredOption](minimumCapacity: 128)
        for option in declaredOptions {
            for name in option.names { byName[name] = option }
        }
        return byName
    }()
}
