import ArgumentParser
import FoundationEssentials
import StanzaqKit

/// What the command sees of its process: its standard streams, whether they are
/// terminals, and the environment variables it reads. The process passes its
/// own (``process()``); tests pass memory and files.
struct CommandEnvironment {
    var standardInput: Int32 = 0
    var output: Output
    var diagnostics: Diagnostics
    var stdinIsTerminal = false
    var stdoutIsTerminal = false
    /// `NO_COLOR` is set to something.
    var noColor = false
    /// Where relative paths are opened.
    var directory: Int32 = AT_FDCWD
    /// Whether Ctrl-C handlers may be installed (the process's, not a test's).
    var handlesSignals = false
    /// How many threads search by default (`--threads`): the CPUs the process may use.
    var processorCount = 1
    /// The size of the parts a large input is cut into for threads, when not
    /// the default: `STANZAQ_PART_SIZE`, a seam for tests that cut often.
    var partSize: Int?
    /// `STANZAQ_DEBUG_PARTS` is set: a parallel search says what became of the
    /// parts of each input it cut (``ParallelOptions/reportsParts``).
    var reportsParts = false

    /// The process's own.
    static func process() -> CommandEnvironment {
        // A standard descriptor the process was started without is held by /dev/null,
        // read-only: the first file opened must not become descriptor 0 (then read
        // again as `-`) or 1 (written into). Output to it still fails (EBADF), and
        // standard input is known to be closed.
        var closed: [Int32] = []
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) < 0 && errno == EBADF {
            closed.append(fd)
            let null = open("/dev/null", O_RDONLY)
            if null >= 0 && null != fd {
                _ = dup2(null, fd)
                close(null)
            }
        }
        return CommandEnvironment(
            standardInput: closed.contains(0) ? -1 : 0,
            output: Output(fileDescriptor: 1), diagnostics: Diagnostics(fileDescriptor: 2),
            stdinIsTerminal: isatty(0) != 0, stdoutIsTerminal: isatty(1) != 0,
            noColor: getenv("NO_COLOR").map { $0.pointee != 0 } ?? false, handlesSignals: true,
            processorCount: availableProcessorCount(),
            partSize: getenv("STANZAQ_PART_SIZE").flatMap { Int(String(cString: $0)) }.flatMap { $0 > 0 ? $0 : nil },
            reportsParts: getenv("STANZAQ_DEBUG_PARTS").map { $0.pointee != 0 } ?? false)
    }
}

enum Stanzaq {
    /// Parses `arguments` (without the program name), runs the command, and returns
    /// the exit status. Errors print as `stanzaq: error: …` and give 2, as grep's do;
    /// help and `--version` go to standard output and give 0.
    static func main(_ arguments: [String], in environment: CommandEnvironment) -> Int32 {
        if let shell = requestedCompletionShell(arguments) {
            try? environment.output.write(CompletionScripts.script(for: shell))
            try? environment.output.flush()
            return 0
        }
        if StanzaqCommand.requestsVersion(arguments) {
            try? environment.output.write(StanzaqCommand.versionText + "\n")
            try? environment.output.flush()
            return 0
        }
        do {
            let arguments = try StanzaqCommand.normalising(arguments)
            if let command = StanzaqCommand.parsedWithoutArgumentParser(arguments) {
                // What ArgumentParser checks after parsing.
                try command.query.validate()
                try command.mode.validate()
                try command.format.validate()
                try command.input.validate()
                try command.validate()
                return try command.execute(in: environment)
            }
            // `--help` parses as ArgumentParser's HelpCommand, whose run() throws the help request.
            let (head, operands) = StanzaqCommand.splittingTrailingOperands(arguments)
            var parsed = try StanzaqCommand.parseAsRoot(head)
            guard var command = parsed as? StanzaqCommand else { try parsed.run(); return 0 }
            command.positionals += operands
            return try command.execute(in: environment)
        } catch let diagnostic as Diagnostic {
            try? environment.output.flush()
            environment.diagnostics.report(diagnostic)
            return 2
        } catch let code as ExitCode {
            return code.rawValue
        } catch {
            if StanzaqCommand.exitCode(for: error) == .success {
                try? environment.output.write(StanzaqCommand.shownHelp(StanzaqCommand.fullMessage(for: error)) + "\n")
                try? environment.output.flush()
                return 0
            }
            environment.diagnostics.report(Diagnostic(StanzaqCommand.message(for: error)))
            environment.diagnostics.write("Usage: stanzaq [OPTIONS] QUERY [FILE...]  (see stanzaq --help)")
            return 2
        }
    }
}

extension StanzaqCommand {
    /// The help as shown: `--log`'s value is optional and binds only with `=`
    /// (``normalising(_:)``), which ArgumentParser's `--log <FORMAT>` does not say.
    /// (The two forms are as wide, so the columns stay aligned.)
    static func shownHelp(_ text: String) -> String {
        text.replacingLiterally("--log <FORMAT>", with: "--log[=FORMAT]")
    }
}

/// The shell of `--generate-completion-script SHELL` (or `=SHELL`) when it is the
/// whole command line: stanzaq writes that script itself (``CompletionScripts``).
/// Anything else, an unknown shell included, is left to the parser.
private func requestedCompletionShell(_ arguments: [String]) -> CompletionShell? {
    let option = "--generate-completion-script"
    let name: String
    if arguments.count == 2 && arguments[0] == option {
        name = arguments[1]
    } else if arguments.count == 1 && arguments[0].hasPrefix(option + "=") {
        name = String(arguments[0].dropFirst(option.count + 1))
    } else {
        return nil
    }
    return CompletionShell(rawValue: name)
}
