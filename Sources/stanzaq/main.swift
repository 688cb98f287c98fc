import StanzaqKit

// A reader that goes away (`stanzaq … | head -1`) shows as EPIPE from write(),
// which the output reports, not as a signal that kills.
signal(SIGPIPE, SIG_IGN)
// Arguments are decoded from their bytes so that a file name that is not UTF-8
// still opens its file (StanzaqKit.FileNames).
exit(Stanzaq.main(Array(FileNames.commandLineArguments.dropFirst()), in: .process()))
