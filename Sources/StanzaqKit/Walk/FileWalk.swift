/// What a ``FileWalk`` yields, in the order the inputs are searched.
public enum WalkItem: Equatable, Sendable {
    /// A path to search, as records and messages name it (`-`: standard input).
    case input(String)
    /// A directory that could not be listed, with the `errno` of the failure.
    case unreadableDirectory(String, errno: Int32)
}

/// The inputs of a search, from the operands of the command line (stanzaq(1), `-r`):
/// each operand as it is, or, recursively, every regular file under a directory
/// operand, depth first, the entries of each directory in the byte order of their
/// names. As `grep -r` does, a symbolic link named on the command line is
/// followed and one found inside a directory is not (nor are devices, FIFOs and
/// sockets found there); the ``GlobFilter`` applies to what is found inside.
///
/// A walk holds one directory listing per level it is in, never the whole tree, and
/// yields lazily: the first file is searched before the rest of the tree is read.
/// It only names files; opening them (and saying why one cannot be) is the searcher's.
public struct FileWalk: Sequence, IteratorProtocol {
    private struct Entry {
        var name: String
        var isDirectory: Bool
    }

    /// A directory being listed.
    private struct Level {
        /// The path it is opened by (and named by); "" for the working directory when no operand is given.
        var path: String
        /// Its path below the operand, for the globs ("" for the operand itself).
        var relative: String
        var entries: [Entry]
        var index = 0
    }

    private var operands: [String]
    private var operandIndex = 0
    private let recursive: Bool
    private let filter: GlobFilter
    private let directory: Int32
    private var levels: [Level] = []

    /// The walk over `operands` (none: standard input, or with `recursive` the
    /// working directory, whose files are named without a leading `./`, as grep
    /// names them). Relative paths are opened in `directory`.
    public init(operands: [String], recursive: Bool = false, filter: GlobFilter = GlobFilter(), directory: Int32 = AT_FDCWD) {
        self.operands = operands.isEmpty ? [recursive ? "" : "-"] : operands
        self.recursive = recursive
        self.filter = filter
        self.directory = directory
    }

    public mutating func next() -> WalkItem? {
        while true {
            if !levels.isEmpty {
                let last = levels.count - 1
                guard levels[last].index < levels[last].entries.count else {
                    levels.removeLast()
                    continue
                }
                let entry = levels[last].entries[levels[last].index]
                levels[last].index += 1
                let path = Self.join(levels[last].path, entry.name)
                let relative = Self.join(levels[last].relative, entry.name)
                guard filter.admits(relative, isDirectory: entry.isDirectory) else { continue }
                if !entry.isDirectory { return .input(path) }
                if let failure = enter(path, relative: relative) { return failure }
                continue
            }
            guard operandIndex < operands.count else { return nil }
            let operand = operands[operandIndex]
            operandIndex += 1
            guard recursive, operand != "-" else { return .input(operand) }
            // The operand itself: a symbolic link is followed, and anything that is not
            // a directory (or cannot be looked at) is searched, or reported, as a file.
            var status = stat()
            guard operand.isEmpty || (fstatat(directory, operand.fileSystemPath, &status, 0) == 0 && Self.isDirectory(status)) else {
                return .input(operand)
            }
            if let failure = enter(operand, relative: "") { return failure }
        }
    }

    /// Lists the directory at `path` as a new level; returns the failure if it cannot be.
    private mutating func enter(_ path: String, relative: String) -> WalkItem? {
        let descriptor = openat(directory, (path.isEmpty ? "." : path).fileSystemPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0, let stream = fdopendir(descriptor) else {
            let code = errno
            if descriptor >= 0 { close(descriptor) }
            return .unreadableDirectory(path.isEmpty ? "." : path, errno: code)
        }
        defer { closedir(stream) }
        var entries: [Entry] = []
        errno = 0
        while let record = readdir(stream) {
            var status = stat()
            let (name, found) = withUnsafePointer(to: &record.pointee.d_name) { pointer in
                let bytes = UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self)
                // Not followed: a link found in the tree is skipped, whatever it points to.
                let found = fstatat(dirfd(stream), bytes, &status, AT_SYMLINK_NOFOLLOW) == 0
                // A name that is not UTF-8 is kept as its bytes (FileNames).
                return (FileNames.decode(UnsafeRawBufferPointer(start: bytes, count: strlen(bytes))), found)
            }
            if name == "." || name == ".." { continue }
            guard found else { continue }
            let kind = status.st_mode & S_IFMT
            guard kind == S_IFDIR || kind == S_IFREG else { continue }
            entries.append(Entry(name: name, isDirectory: kind == S_IFDIR))
        }
        entries.sort { $0.name.fileSystemPath.lexicographicallyPrecedes($1.name.fileSystemPath) { UInt8(bitPattern: $0) < UInt8(bitPattern: $1) } }   // byte order
        levels.append(Level(path: path, relative: relative, entries: entries))
        return nil
    }

    private static func isDirectory(_ status: stat) -> Bool {
        status.st_mode & S_IFMT == S_IFDIR
    }

    private static func join(_ directory: String, _ name: String) -> String {
        if directory.isEmpty { return name }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
