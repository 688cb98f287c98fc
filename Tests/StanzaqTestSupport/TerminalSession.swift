import Foundation
import XCTest

/// A program running on a pseudo-terminal, driven like a person would.
public final class TerminalSession {
    private let child: Child
    private var master: Int32 { child.terminal! }
    public private(set) var screen = ""

    public init(_ binary: URL, _ arguments: [String], environment: [String: String]) throws {
        child = try Child(onTerminal: [binary.path] + arguments, environment: environment)
    }

    /// Types `text`, once the program reads the terminal in raw mode: this
    /// libedit prints its prompt before it leaves canonical mode, and a Ctrl-D
    /// typed in that instant would reach it as a NUL byte (`^@`).
    ///
    /// `whileBusy`: types at once, while the program runs a command (the terminal is
    /// then in canonical mode, where Ctrl-C is a signal).
    public func send(_ text: String, whileBusy: Bool = false, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(whileBusy ? 0 : 10)
        var settings = termios()
        while tcgetattr(master, &settings) == 0, settings.c_lflag & tcflag_t(ICANON) != 0, Date() < deadline {
            usleep(2_000)
        }
        let written = text.withCString { write(master, $0, strlen($0)) }
        if written != text.utf8.count {
            XCTFail("writing to the terminal failed (errno \(errno))", file: file, line: line)
        }
    }

    /// Reads the terminal until its output (since the last `expect`) contains `text`.
    @discardableResult
    public func expect(_ text: String, timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !screen.contains(text) {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 {
                XCTFail("timed out waiting for \(text.debugDescription); the terminal showed \(screen.debugDescription)", file: file, line: line)
                return screen
            }
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(left * 1000)) > 0 else { continue }
            let count = read(master, &buffer, buffer.count)
            if count <= 0 { break }
            screen += String(decoding: buffer[..<count], as: UTF8.self)
        }
        let seen = screen
        if let range = screen.range(of: text) { screen = String(screen[range.upperBound...]) }
        return seen
    }

    /// Ctrl-D; the exit status.
    public func endWithControlD() -> Int32? {
        send("\u{4}")
        return exitStatus()
    }

    /// Sends `signal` to the program.
    public func send(signal: Int32) {
        child.send(signal)
    }

    /// Waits for the program to exit, keeping the terminal drained; its status
    /// (128 + the signal if one killed it), or `nil` if it was still running.
    public func exitStatus(timeout: TimeInterval = 10) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let master = self.master
        return child.wait(timeout: timeout) {
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 20) > 0 {
                _ = read(master, &buffer, buffer.count)
            }
        }?.shellStatus
    }
}
