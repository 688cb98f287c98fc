#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// Decides, part after part, whether the parts of an input read on their own
/// are what one reader of the whole input reads there: a part is kept if the
/// parts before it were and it was read cleanly — of an XMPP stream, ending
/// where the scanner said; of a log, at a clean cut (``LogReader/isAtCleanCut``…),
/// started in the state the part before handed on (``LogReader/handover``),
/// its start tags faring as in that reader (``LogCutState``).
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
        var cutLog: LogCutLog?
        /// Whether it was read cleanly to its end.
        var clean: Bool
        /// Whether the part depends on nothing before it once it is read
        /// cleanly: a part of an XMPP stream or sequence, whose reader checks
        /// that it ends where the scanner said, with as many stanzas.
        var standsAlone = false

        init(cutLog: LogCutLog?, clean: Bool) {
            self.cutLog = cutLog
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

    private let state = LogCutState()
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
        guard report.clean else { return report.cutLog?.trouble ?? "not read to its end" }
        guard let cutLog = report.cutLog else { return report.standsAlone ? nil : "not read to its end" }
        return state.trouble(applying: cutLog)
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
    /// The first part not kept, and why (``SearchOptions/reportsParts``).
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
