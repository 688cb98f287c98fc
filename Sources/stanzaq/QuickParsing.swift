import ArgumentParser
import StanzaqKit

// A command line of the options the README's tour and shell loops use —
// `stanzaq QUERY FILE…`, `stanzaq -c -H QUERY FILE…` — is parsed here without
// ArgumentParser, whose reflection over the command's sixty options (its
// protocol conformances looked up and its metadata made, three times a parse)
// was most of a start-up. The parser knows the options from
// ``StanzaqCommand/declaredOptions``; whatever it is not sure of (an unknown
// option, `-cH`, `-m3`, a value that looks like an option or does not parse,
// `--help`) it leaves to ArgumentParser, which then parses the whole command
// line and gives its own messages. DeclaredOptionsTests compares the two
// parsers' commands on every option and on random command lines.

extension StanzaqCommand {
    /// The command for `arguments` (normalised, ``normalising(_:)``), parsed from
    /// ``declaredOptions`` as ArgumentParser would parse it; `nil` where
    /// ArgumentParser must parse it. Every option not given is as parsing
    /// leaves it.
    static func parsedWithoutArgumentParser(_ arguments: [String]) -> StanzaqCommand? {
        guard !arguments.isEmpty else { return nil }
        var command = StanzaqCommand.unset
        var index = arguments.startIndex
        var afterTerminator = false
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if afterTerminator || argument == "-" || !argument.hasPrefix("-") {
                command.positionals.append(argument)
                continue
            }
            if argument == "--" {
                afterTerminator = true
                continue
            }
            var name = Substring(argument)
            var attached: Substring?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = argument[..<equals]
                attached = argument[argument.index(after: equals)...]
                if attached?.isEmpty == true { return nil }
            } else if !argument.hasPrefix("--") && argument.utf8.count != 2 {
                return nil
            }
            guard let option = declaredOptionsByName[String(name)] else { return nil }
            var value: String?
            if let taking = option.value {
                if let attached {
                    value = String(attached)
                } else {
                    guard index < arguments.endIndex else { return nil }
                    if taking == .next && arguments[index].hasPrefix("-") { return nil }
                    value = arguments[index]
                    index += 1
                }
            } else if attached != nil {
                return nil
            }
            guard option.set(&command, value) else { return nil }
        }
        return command
    }

    /// The command with no operand and no option given.
    static var unset: StanzaqCommand {
        var command = StanzaqCommand()
        command.positionals = []
        command.query = .unset
        command.mode = .unset
        command.format = .unset
        command.input = .unset
        command.showsVersion = false
        return command
    }
}

extension QueryArguments {
    /// No query option given.
    static var unset: QueryArguments {
        var options = QueryArguments()
        options.queries = []
        options.each = nil
        options.wheres = []
        options.arguments = []
        options.first = false
        options.defaultNamespace = nil
        options.namespaceAliases = []
        options.strict = false
        options.explain = false
        options.caseSensitive = false
        options.monal = false
        return options
    }
}

extension ModeOptions {
    /// No mode option given: the results are printed.
    static var unset: ModeOptions {
        var options = ModeOptions()
        options.quiet = false
        options.count = false
        options.select = false
        options.filesWithMatches = false
        options.filesWithoutMatch = false
        options.maxCount = nil
        options.afterContext = nil
        options.beforeContext = nil
        options.context = nil
        options.pair = false
        options.unanswered = false
        options.invert = false
        options.interactive = false
        return options
    }
}

extension FormatOptions {
    /// No format option given.
    static var unset: FormatOptions {
        var options = FormatOptions()
        options.header = false
        options.output = nil
        options.json = false
        options.null = false
        options.join = false
        options.withFilename = false
        options.merge = false
        options.stanzaNumber = false
        options.epoch = false
        options.pretty = false
        options.compact = false
        options.color = nil
        options.lineBuffered = false
        options.redact = nil
        options.rewrite = false
        return options
    }
}

extension InputOptions {
    /// No input option given.
    static var unset: InputOptions {
        var options = InputOptions()
        options.recursive = false
        options.globs = []
        options.log = nil
        options.xml = false
        options.envelope = nil
        options.direction = nil
        options.since = nil
        options.until = nil
        options.timeZone = nil
        options.timeFormat = nil
        options.fields = nil
        options.lineNumber = false
        options.follow = false
        options.threads = nil
        options.readAll = false
        options.stats = false
        return options
    }
}
