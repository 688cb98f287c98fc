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
