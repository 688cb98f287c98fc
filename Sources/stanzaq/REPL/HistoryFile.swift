#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The REPL's history file: read at start, one line appended per entry.
///
/// libedit's own `H_SAVE` rewrites the whole file after every line (a long
/// paste takes time quadratic in its length) and, like its `H_LOAD`, opens the
/// path with `fopen`, which follows a symlink there — `O_TRUNC` on whatever it points at. This keeps
/// libedit's format (a `_HiStOrY_V2_` line, then one entry a line with a
/// backslash, space, tab and other control characters written `\\`, `\040`, …)
/// so that existing files still load, but opens with `O_NOFOLLOW`, appends, and
/// only rewrites the file (to a new one, renamed over it) when it has grown to
/// twice the entries kept.
struct HistoryFile {
    static let header = "_HiStOrY_V2_"
    let path: String
    /// The entries kept.
    let size: Int

    /// The path in the state directory (stanzaq(1), FILES): `$XDG_STATE_HOME` if
    /// set to an absolute path (a relative one is ignored, as the XDG Base
    /// Directory specification says), else `$HOME/.local/state`. Only `stanzaq`
    /// is created inside it, and `.local/state` inside an existing `$HOME`; a
    /// `$XDG_STATE_HOME` that does not exist means no history file, rather than
    /// directories made far from where the user pointed. `nil`: no history file.
    static func path(environment: (String) -> String?) -> String? {
        let state: String
        if let xdg = environment("XDG_STATE_HOME"), xdg.hasPrefix("/") {
            state = xdg
        } else if let home = environment("HOME"), home.hasPrefix("/"), isDirectory(home) {
            state = home + "/.local/state"
            mkdir(home + "/.local", 0o700)
            mkdir(state, 0o700)
        } else {
            return nil
        }
        guard isDirectory(state) else { return nil }
        let directory = state + "/stanzaq"
        mkdir(directory, 0o700)
        return isDirectory(directory) ? directory + "/history" : nil
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The entries in the file, oldest first (the last `size`); the file is
    /// rewritten when it holds twice as many. Nothing if it is missing, a symlink
    /// or not a regular file.
    func load() -> [String] {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return [] }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        var entries = bytes.split(separator: UInt8(ascii: "\n")).map { Self.decode(Array($0)) }
        if entries.first == Self.header { entries.removeFirst() }
        if entries.count > 2 * size {
            entries = Array(entries.suffix(size))
            rewrite(entries)
        } else if entries.count > size {
            entries = Array(entries.suffix(size))
        }
        return entries
    }

    /// Appends one entry (creating the file with its header when missing).
    func append(_ entry: String) {
        var fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        var text = Self.encode(entry) + "\n"
        if fd < 0 && errno == ENOENT {
            fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            text = Self.header + "\n" + text
        }
        guard fd >= 0 else { return }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return }
        let bytes = Array(text.utf8)
        _ = Self.write(fd, bytes)
    }

    /// Writes all of `bytes`; false on an error.
    private static func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }

    /// Replaces the file by one with `entries`: written beside it, then renamed
    /// over it (rename replaces a symlink, never what it points at).
    private func rewrite(_ entries: [String]) {
        let temporary = path + ".new"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        let bytes = Array(([Self.header] + entries.map(Self.encode)).map { $0 + "\n" }.joined().utf8)
        let written = Self.write(fd, bytes)
        close(fd)
        if written { rename(temporary, path) } else { unlink(temporary) }
    }

    /// libedit's encoding (strvis with VIS_WHITE): backslash doubled; space, tab,
    /// newline and other control characters as a backslash and three octal digits.
    static func encode(_ entry: String) -> String {
        var out: [UInt8] = []
        for byte in entry.utf8 {
            if byte == UInt8(ascii: "\\") {
                out += [byte, byte]
            } else if byte <= 0x20 || byte == 0x7F {
                out.append(UInt8(ascii: "\\"))
                for shift in [6, 3, 0] { out.append(UInt8(ascii: "0") + (byte >> UInt8(shift)) & 7) }
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Undoes ``encode(_:)`` (and libedit's `\\` and octal escapes).
    static func decode(_ line: [UInt8]) -> String {
        var out: [UInt8] = []
        var index = 0
        while index < line.count {
            let byte = line[index]
            if byte == UInt8(ascii: "\\"), index + 1 < line.count {
                let next = line[index + 1]
                if next == UInt8(ascii: "\\") { out.append(next); index += 2; continue }
                if index + 3 < line.count, line[(index + 1)...(index + 3)].allSatisfy({ (0x30...0x37).contains($0) }) {
                    out.append(line[(index + 1)...(index + 3)].reduce(0) { $0 &* 8 &+ ($1 - 0x30) })
                    index += 4
                    continue
                }
            }
            out.append(byte)
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
