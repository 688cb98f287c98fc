#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// A file the REPL loaded lazily (stanzaq(1), REPL): where each stanza is in it,
/// not the stanzas, which are read again from the file when a command needs them.
/// A 200 MB capture then costs a few megabytes of offsets instead of a gigabyte of
/// trees. The file must stay as it was: if its size or modification time change,
/// reading a stanza again is an error.
final class StanzaFile {
    /// The name it was loaded as (for prefixes and messages).
    let path: String
    private let directory: Int32
    /// The default namespace it was read with (`:default-namespace` at load time).
    private let defaultNamespace: String?
    private(set) var places: [StanzaByteRange] = []
    private var size = 0
    private var modified = timespec()

    init(path: String, directory: Int32, defaultNamespace: String?) {
        self.path = path
        self.directory = directory
        self.defaultNamespace = defaultNamespace
    }

    /// Records the file's identity (after the first reading).
    func seal(_ info: stat, places: [StanzaByteRange]) {
        size = Int(info.st_size)
        modified = info.st_mtim
        self.places = places
    }

    /// Opens the file, checking it is still the one that was read.
    private func open() throws(Diagnostic) -> Int32 {
        let fd = openat(directory, path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .opening(path, errno: errno) }
        var info = stat()
        guard fstat(fd, &info) == 0, Int(info.st_size) == size,
              info.st_mtim.tv_sec == modified.tv_sec, info.st_mtim.tv_nsec == modified.tv_nsec else {
            close(fd)
            throw Diagnostic("\(path): the file changed since it was loaded (:load it again)")
        }
        return fd
    }

    /// Stanza `index` (from 0), read again from the file.
    func element(at index: Int) throws(Diagnostic) -> Element {
        let fd = try open()
        defer { close(fd) }
        let place = places[index]
        var bytes = place.streamHeader ?? []
        let headerCount = bytes.count
        bytes += [UInt8](repeating: 0, count: place.bytes.count)
        var done = 0
        while done < place.bytes.count {
            let count = bytes.withUnsafeMutableBytes {
                pread(fd, $0.baseAddress! + headerCount + done, place.bytes.count - done, off_t(place.bytes.lowerBound + done))
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw Diagnostic("\(path): the file changed since it was loaded (:load it again)") }
            done += count
        }
        var found: Element?
        let reader = StanzaReader(defaultNamespace: defaultNamespace) { found = $0; return true }
        do {
            try reader.feed(bytes)
            try reader.finish()
        } catch {
            throw .reading(path, error)
        }
        guard let found else { throw Diagnostic("\(path): stanza \(index + 1) is no longer where it was (:load it again)") }
        return found
    }

    /// Reads the file again from its start and hands over its stanzas in order,
    /// from `first` (from 0), until `body` returns false.
    func forEach(from first: Int = 0, _ body: (Int, Element) throws(OutputError) -> Bool) throws(OutputError) -> Diagnostic? {
        let fd: Int32
        do { fd = try open() } catch { return error }
        Interruption.reading(fd)
        defer {
            Interruption.reading(-1)
            close(fd)
        }
        var index = 0
        var outputError: OutputError?
        let count = places.count
        // The reader keeps its handler: `body` is only lent to it for this reading.
        return try withoutActuallyEscaping(body) { (body) throws(OutputError) -> Diagnostic? in
            let reader = StanzaReader(defaultNamespace: defaultNamespace) { element in
                defer { index += 1 }
                guard index >= first else { return true }
                do throws(OutputError) {
                    return try body(index, element) && index + 1 < count
                } catch {
                    outputError = error
                    return false
                }
            }
            do {
                try reader.read(fileDescriptor: fd)
            } catch {
                if let outputError { throw outputError }
                return .reading(path, error)
            }
            if let outputError { throw outputError }
            return nil
        }
    }
}
