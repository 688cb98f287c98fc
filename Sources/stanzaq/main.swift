import StanzaqKit

// A reader that goes away (`stanzaq … | head -1`) shows as EPIPE from write(),
// which the output reports, not as a signal that kills.
signal(SIGPIPE, SIG_IGN)
exit(Stanzaq.main(Array(CommandLine.arguments.dropFirst()), in: .process()))
