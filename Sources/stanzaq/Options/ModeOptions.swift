import ArgumentParser
import StanzaqKit

/// The options that say what is printed of the stanzas that have results: the
/// results, the stanzas, a count, file names, nothing; and grep's context and
/// limits around them (stanzaq(1), OPTIONS).
struct ModeOptions: ParsableArguments {
    @Flag(name: [.customShort("q"), .customLong("quiet")], help: "Print nothing; exit 0 as soon as a stanza has a result.")
    var quiet = false

    @Flag(name: [.customShort("c"), .customLong("count")], help: "Print the number of stanzas with a result (per file with -H); with several columns or --fields, each distinct row after its count.")
    var count = false

    @Flag(name: [.customShort("s"), .customLong("select")], help: "Print the whole stanzas that have a result.")
    var select = false

    @Flag(name: [.customShort("l"), .customLong("files-with-matches")],
          help: "Print only the names of the files that have a selected stanza (reading each stops at its first).")
    var filesWithMatches = false

    @Flag(name: [.customShort("L"), .customLong("files-without-match")], help: "Print only the names of the files that have no selected stanza.")
    var filesWithoutMatch = false

    @Option(name: [.customShort("m"), .customLong("max-count")],
            help: ArgumentHelp("Stop reading a file after N stanzas with a result (per file).", valueName: "N"))
    var maxCount: Int?

    @Option(name: [.customShort("A"), .customLong("after-context")],
            help: ArgumentHelp("With -s: also print the N stanzas after each selected one (-- between groups).", valueName: "N"))
    var afterContext: Int?

    @Option(name: [.customShort("B"), .customLong("before-context")],
            help: ArgumentHelp("With -s: also print the N stanzas before each selected one.", valueName: "N"))
    var beforeContext: Int?

    @Option(name: [.customShort("C"), .customLong("context")],
            help: ArgumentHelp("With -s: also print N stanzas before and after each selected one.", valueName: "N"))
    var context: Int?

    @Flag(help: "With -s: also print, for each selected iq, the request it answers or the response it got (same id).")
    var pair = false

    @Flag(help: "With -s: print, at the end, only the selected iq requests (get, set) that no result or error answers.")
    var unanswered = false

    @Flag(name: [.customShort("v"), .customLong("invert")], help: "Select, count or test the stanzas that have no result (alone: like -s -v).")
    var invert = false

    @Flag(name: [.customShort("i"), .customLong("interactive")], help: "Start the interactive REPL.")
    var interactive = false

    /// The flags that choose what is printed, in one table: each with its name
    /// (for messages) and what it chooses. ``report`` maps them once.
    private var modeFlags: [(given: Bool, name: String, report: SearchOptions.Report)] {
        [(quiet, "-q", .quiet), (count, "-c", .count), (select, "-s", .stanzas),
         (filesWithMatches, "-l", .files(without: false)), (filesWithoutMatch, "-L", .files(without: true))]
    }

    /// The mode flag given, if one is.
    private var chosen: (name: String, report: SearchOptions.Report)? {
        modeFlags.first(where: \.given).map { ($0.name, $0.report) }
    }

    func validate() throws {
        let given = modeFlags.filter(\.given)
        if given.count > 1 {
            let names = modeFlags.map(\.name)
            throw ValidationError("choose one of \(names.dropLast().joined(separator: ", ")) and \(names.last!)")
        }
    }

    /// What is printed: the mode flag's choice; else the stanzas for `-v` alone, or the results.
    var report: SearchOptions.Report {
        chosen?.report ?? (invert ? .stanzas : .results)
    }

    /// Whether only file names are printed (`-l`, `-L`), and which option says so.
    var listing: String? {
        if case .files = report { return chosen?.name }
        return nil
    }

    /// Whether whole stanzas are printed: `-s`, or `-v` alone.
    var selects: Bool { report == .stanzas }

    /// The mode that prints no stanza (`-l`, `-L`, `-c`, `-q`), if one is given.
    var summary: String? {
        report == .stanzas || report == .results ? nil : chosen?.name
    }

    /// The options of grep's habits (stanzaq(1), `-m`, `-A`, `--pair`): numbers
    /// in range, and nothing they cannot go with.
    func validateGrepOptions() throws {
        for (name, value) in [("-m", maxCount), ("-A", afterContext), ("-B", beforeContext), ("-C", context)] {
            if let value, value < 0 { throw ValidationError("\(name) needs a number of 0 or more, not \(value)") }
        }
        let contextOption = afterContext != nil ? "-A" : beforeContext != nil ? "-B" : context != nil ? "-C" : nil
        if let contextOption {
            if let summary { throw ValidationError("\(contextOption) prints stanzas around selected ones, which \(summary) does not print") }
            if !selects { throw ValidationError("\(contextOption) prints stanzas around selected ones: add -s") }
            if pair { throw ValidationError("choose one of \(contextOption) and --pair") }
            if unanswered { throw ValidationError("choose one of \(contextOption) and --unanswered") }
        }
        if pair && !selects {
            throw ValidationError(summary.map { "--pair prints stanzas, which \($0) does not print" } ?? "--pair prints the partners of selected stanzas: add -s")
        }
        if unanswered {
            if pair { throw ValidationError("choose one of --pair and --unanswered") }
            if !selects {
                throw ValidationError(summary.map { "--unanswered prints stanzas, which \($0) does not print" } ?? "--unanswered prints the requests no response answers: add -s")
            }
        }
    }

    /// How many stanzas to print around selected ones: `-A`/`-B` win over `-C`, as in grep.
    var stanzaContext: StanzaContext? {
        guard afterContext != nil || beforeContext != nil || context != nil else { return nil }
        return StanzaContext(before: beforeContext ?? context ?? 0, after: afterContext ?? context ?? 0)
    }
}
