import ArgumentParser
import StanzaqKit

// A command line of operands only — `stanzaq QUERY FILE…`, as shell loops and
// `find -exec` run it thousands of times — is made here without ArgumentParser,
// whose reflection over the command's sixty options (its protocol conformances
// looked up and its metadata made, three times a parse) was most of a start-up.
// Every option is as parsing leaves it when it is not given; OperandsOnlyTests
// compares the two for every group.

extension StanzaqCommand {
    /// The command for `arguments` if none of them is an option (each is `-`
    /// or does not start with `-`), else `nil`: ArgumentParser parses it.
    static func operandsOnly(_ arguments: [String]) -> StanzaqCommand? {
        guard !arguments.isEmpty, arguments.allSatisfy({ $0 == "-" || !$0.hasPrefix("-") }) else { return nil }
        var command = StanzaqCommand()
        command.positionals = arguments
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
