import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Errors print as `stanzaq: error: …` and exit 2, as grep's do; help and
// --version go to standard output and exit 0.
do {
    // `--help` parses as ArgumentParser's HelpCommand, whose run() throws the help request.
    var parsed = try StanzaqCommand.parseAsRoot(StanzaqCommand.normalising(Array(CommandLine.arguments.dropFirst())))
    guard var command = parsed as? StanzaqCommand else { try parsed.run(); exit(0) }
    try command.run()
} catch let failure as QueryFailure {
    printError("stanzaq: error: \(failure.error)")
    exit(2)
} catch let code as ExitCode {
    exit(code.rawValue)
} catch {
    let exitCode = StanzaqCommand.exitCode(for: error)
    if exitCode == .success {
        print(StanzaqCommand.fullMessage(for: error))
        exit(0)
    }
    printError("stanzaq: error: \(StanzaqCommand.message(for: error))")
    printError("Usage: stanzaq [OPTIONS] QUERY [FILE...]  (see stanzaq --help)")
    exit(2)
}
