#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// Decides, part after part, whether the parts of an input read on their own
/// are what one reader of the whole input reads there: a part is kept if the
/// parts before it were and it was read cleanly — of an XMPP stream, ending
/// where the scanner said; of a log, at a clean cut (``LogReader/canHandOff``…),
/// started in the state the part before handed on (``LogReader/handover``),
/// its start tags faring as in that reader (``LogHistory``).
///
/// A state machine, as swift-nio's are: told of parts read (in any order, a
/// group at a time — a part, or the windows of one job), it returns the
/// verdicts now known, one a group, in order; it runs nothing, waits for
/// nothing and holds no lock (``StitchedInput`` does). Once a part is not kept,
/// no later one is: one reader reads the input again from there.
struct Stitcher {
    /// What the reader of one part found.
    struct Report {
        /// What it did that depends on the stanzas before it; `nil` if unknown.
        var ledger: LogLedger?
        /// Whether it was read cleanly to its end.
        var clean: Bool
        /// Whether the part depends on nothing before it once it is read
        /// cleanly: a part of an XMPP stream or sequence, whose reader checks
        /// that it ends where the scanner said, with as many stanzas.
        var standsAlone = false

        init(ledger: LogLedger?, clean: Bool) {
            self.ledger = ledger
            self.clean = clean
        }

        /// The report of a part that stands alone (``standsAlone``).
        init(standingAlone clean: Bool) {
            self.clean = clean
            standsAlone = true
        }
    }

    /// What becomes of a group of parts: all kept, or read again.
    struct Verdict: Equatable {
        var group: Int
        var kept: Bool
    }

    private let state = LogHistory()
    /// The next part to check, and the groups read whose check waits for the parts before.
    private var next = 0
    private var read: [Int: (group: Int, end: Int, reports: [Report])] = [:]
    /// The first part not kept, and why.
    private(set) var fellBack: (index: Int, why: String)?

    /// Parts `parts` (a group, named by its first part) were read, with
    /// `reports`, one a part: the verdicts now known.
    mutating func partsRead(_ parts: Range<Int>, _ reports: [Report]) -> [Verdict] {
        guard fellBack == nil else { return [Verdict(group: parts.lowerBound, kept: false)] }
        read[parts.lowerBound] = (parts.lowerBound, parts.upperBound, reports)
        var verdicts: [Verdict] = []
        while fellBack == nil, let group = read.removeValue(forKey: next) {
            for (offset, report) in group.reports.enumerated() where fellBack == nil {
                if let why = trouble(report) { fellBack = (group.group + offset, why) }
            }
            next = group.end
            verdicts.append(Verdict(group: group.group, kept: fellBack == nil))
        }
        if fellBack != nil {
            verdicts += read.keys.sorted().map { Verdict(group: $0, kept: false) }
            read = [:]
        }
        return verdicts
    }

    /// Why the next part in order is not kept; `nil` if it is.
    private func trouble(_ report: Report) -> String? {
        guard report.clean else { return report.ledger?.trouble ?? "not read to its end" }
        guard let ledger = report.ledger else { return report.standsAlone ? nil : "not read to its end" }
        return state.trouble(applying: ledger)
    }
}

/// An input's ``Stitcher`` shared by the threads that read its parts: each
/// thread that reads a group tells it, under the lock, and then runs outside
/// it what the verdicts now known say for each group — its own, or one
/// another thread read before.
final class StitchedInput: @unchecked Sendable {
    private let lock = Condition()
    private var stitcher = Stitcher()
    /// What to do with each group's verdict, until it is known.
    private var actions: [Int: (Bool) -> Void] = [:]
    /// The first part not kept, and why (``ParallelOptions/reportsParts``).
    var fellBack: (index: Int, why: String)? {
        lock.lock()
        defer { lock.unlock() }
        return stitcher.fellBack
    }

    /// Parts `parts` were read: `then` is called with whether they are kept,
    /// now or by the thread that reads the last of the parts before them.
    func partsRead(_ parts: Range<Int>, _ reports: [Stitcher.Report], then: @escaping (Bool) -> Void) {
        lock.lock()
        actions[parts.lowerBound] = then
        let decided = stitcher.partsRead(parts, reports).map { (actions.removeValue(forKey: $0.group)!, $0.kept) }
        lock.unlock()
        for (action, kept) in decided { action(kept) }
    }
}

/// What the stitcher's verdicts do: a part is searched into a trial transcript,
/// adopted if kept; else one reader reads the rest of the file from the
/// earliest part not kept.
extension ParallelSearch {
    /// Runs the job of `part`; whether it is done (a part that ends inside
    /// the file is done once checked, maybe by another worker:
    /// ``StitchedInput/partsRead(_:_:then:)``).
    func run(_ part: PartOfInput, of file: SplitFile, for job: Job) -> Bool {
        guard part.bytes != nil else {
            search(part.searched(file.path), for: job, into: job.transcript)
            return true
        }
        // Kept whole until it is known to be read as one reader reads it.
        let trial = Transcript(unbounded: true)
        var ledger: LogLedger?
        let clean = search(part.searched(file.path), for: job, into: trial, ledger: &ledger)
        // Kept only if the parts before it were, and (in a log) its start tags fared as in one reader.
        let report = part.log != nil ? Stitcher.Report(ledger: ledger, clean: clean) : Stitcher.Report(standingAlone: clean)
        file.stitched.partsRead(part.index..<(part.index + 1), [report]) { [self] kept in
            settle(job, file, part, trial, kept: kept)
            job.transcript.finish()
        }
        return false
    }

    /// What a part read on its own comes to: what it found, if it is kept (or
    /// no longer wanted); else the rest of the file read from its start by one
    /// reader (the earliest part to fall back: parts may end in any order).
    private func settle(_ job: Job, _ file: SplitFile, _ part: PartOfInput, _ trial: Transcript, kept: Bool) {
        // A trial not adopted lets go of its sink (whose output holds the trial).
        defer { trial.sink = nil }
        if kept || isUnwanted(job) {
            if kept { file.partsKept.add(1, ordering: .relaxed) }
            job.transcript.adopt(trial)
            return
        }
        guard fallBack(job, in: file) else { return }
        search(restOfFile(file, from: part).searched(file.path), for: job, into: job.transcript)
    }

    /// The rest of `file` from `part` on, read by one reader: a log again from
    /// its start, in the state one reader is in at the part (``rereading(_:from:line:)``),
    /// a stream from the part to its end.
    func restOfFile(_ file: SplitFile, from part: PartOfInput) -> PartOfInput {
        if part.log != nil { return rereading(file, from: part.offset, line: part.line) }
        var rest = part
        rest.bytes = nil
        rest.stanzas = nil
        return rest
    }

    /// Marks `job` as the one from which one reader reads the rest of its file
    /// (the earliest job to fall back does: jobs may end in any order); returns
    /// whether it is (an earlier one may be already).
    func fallBack(_ job: Job, in file: SplitFile) -> Bool {
        var known = file.fellBackAt.load(ordering: .acquiring)
        while job.index < known {
            let (exchanged, original) = file.fellBackAt.compareExchange(expected: known, desired: job.index,
                                                                         ordering: .acquiringAndReleasing)
            if exchanged { break }
            known = original
        }
        return job.index <= file.fellBackAt.load(ordering: .acquiring)
    }
}

/// The verdict on a part of an input read on its own (stanzaq(1),
/// "Parallelism"): whether its reader read it as one reader of the whole input
/// does, so that what it found is kept; else the input is read again another way.
extension InputSearch {
    /// How many stanzas of `part` counted, and whether it was read as one reader
    /// of the whole input reads it: a part of a log that depends on nothing
    /// before it and ends at a clean cut, a part of a stream that ends where the
    /// scanner said with as many stanzas.
    func verdict(on part: PartOfInput) -> (count: Int, clean: Bool) {
        if let format = part.log {
            // Stopped by the search (-q): what was read up to there is right.
            if !searcher.goesOn(sink) { return (count, true) }
            guard let logReader else { return (count, false) }
            if part.endsInput, let enveloped = part.enveloped { warn(logReader.format, envelope: enveloped.envelope) }
            searcher.ledger = logReader.ledger
            // Read as one reader of the whole log reads it if its start depends on
            // nothing before (the part before ended at a clean cut) — stanza numbers
            // included, which a part after the first does not know — and the next
            // part can start afresh where it ends.
            let start = part.offset == 0 || (!logReader.dependsOnUnknownPast && !evaluator.reportedStanzaNumber)
            let endTrouble = part.endsInput ? nil : logReader.format != format ? "another format" : logReader.handOffTrouble
            if !start {
                searcher.ledger?.trouble = logReader.dependsOnUnknownPast ? "its start depends on earlier lines" : "a stanza number"
            } else if let endTrouble {
                searcher.ledger?.trouble = "its end (line \(logReader.currentLine)) is no clean cut: " + endTrouble
            }
            return (count, start && endTrouble == nil)
        }
        if part.silentThrough > 0, let envelopeReader {
            // The rest of an enveloped log, whose parts gave no warning.
            warned = false
            warn(envelopeReader.formats.first, envelope: envelopeReader.envelope)
        }
        guard let expected = part.stanzas else { return (count, true) }
        // Stopped by the search (-q): what was read up to there is right.
        if !searcher.goesOn(sink) { return (count, true) }
        let clean = xmlReader.map {
            part.sequence ? $0.isAfterSequenceElement : $0.isInsideStreamBetweenStanzas && $0.streamStartTag == part.header
        } ?? false
        return (count, clean && number - part.stanzasBefore == expected)
    }
}

/// What became of the parts of an input (``ParallelOptions/reportsParts``): a
/// test that compares a parallel search with one thread cannot otherwise tell
/// parts read on their own from a file read again by one reader after a part
/// fell back (the output is the same).
extension ParallelSearch {
    /// Writes, to standard error, how many parts of `file` were made and kept,
    /// and where and why the parts fell back to one reader if they did.
    func reportParts(of file: SplitFile) {
        var line = "stanzaq: parts of \(SearchedInput(path: file.path).name): \(file.partsMade.load(ordering: .acquiring)) made, "
            + "\(file.partsKept.load(ordering: .acquiring)) kept"
        // (A part reads the rest of the file only after the stitcher's verdict against it.)
        if let fellBack = file.stitched.fellBack {
            line += ", fell back at part \(fellBack.index): \(fellBack.why)"
        }
        try? output.flush()
        searcher.diagnostics.write(line)
    }
}
