import ArgumentParser
import FoundationEssentials
import StanzaqTestSupport
import XCTest
@testable import stanzaq

/// The command lines parsed without ArgumentParser (start-up, QuickParsing.swift)
/// must be the commands ArgumentParser makes of them: the table of options
/// (DeclaredOptions.swift) names every declared option as it is declared, and
/// the two parsers agree on every option and on random command lines.
final class DeclaredOptionsTests: XCTestCase {
    /// The outcome of parsing as `stanzaq` would: the command's description, or
    /// the message of what parsing or validation refused. `nil` where the quick
    /// parser leaves the command line to ArgumentParser.
    private func quickOutcome(_ arguments: [String]) -> String? {
        guard let normalised = try? StanzaqCommand.normalising(arguments),
              let command = StanzaqCommand.parsedWithoutArgumentParser(normalised) else { return nil }
        do {
            try command.query.validate()
            try command.mode.validate()
            try command.format.validate()
            try command.input.validate()
            try command.validate()
        } catch {
            return "refused: " + StanzaqCommand.message(for: error)
        }
        return String(describing: command)
    }

    private func argumentParserOutcome(_ arguments: [String]) -> String {
        do {
            let parsed = try StanzaqCommand.parseAsRoot(try StanzaqCommand.normalising(arguments))
            guard let command = parsed as? StanzaqCommand else { return "not the command: \(type(of: parsed))" }
            return String(describing: command)
        } catch {
            return "refused: " + StanzaqCommand.message(for: error)
        }
    }

    /// Where the quick parser parses, ArgumentParser gives the same outcome.
    private func assertAgrees(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) -> Bool {
        guard let quick = quickOutcome(arguments) else { return false }
        XCTAssertEqual(quick, argumentParserOutcome(arguments), "\(arguments)", file: file, line: line)
        return true
    }

    /// The options ArgumentParser declares: names, whether each takes a value,
    /// unconditionally, and is repeatable (`--experimental-dump-help`).
    private func declared() throws -> [(names: Set<String>, value: DeclaredOption.ValueTaking?, repeats: Bool)] {
        var dump = ""
        do {
            _ = try StanzaqCommand.parseAsRoot(["--experimental-dump-help"])
        } catch {
            dump = StanzaqCommand.fullMessage(for: error)
        }
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(dump.utf8)) as? [String: Any])
        let arguments = try XCTUnwrap((object["command"] as? [String: Any])?["arguments"] as? [[String: Any]])
        return arguments.compactMap { argument in
            guard let kind = argument["kind"] as? String, kind != "positional",
                  let names = argument["names"] as? [[String: String]] else { return nil }
            let spelled = Set(names.map { ($0["kind"] == "short" ? "-" : "--") + ($0["name"] ?? "") })
            let unconditional = (argument["parsingStrategy"] as? String ?? "").hasPrefix("unconditional")
            let value: DeclaredOption.ValueTaking? = kind == "flag" ? nil : unconditional ? .unconditional : .next
            return (spelled, value, argument["isRepeating"] as? Bool ?? false)
        }
    }

    func testTheTableIsWhatTheOptionsDeclare() throws {
        let answeredElsewhere: Set<String> = ["--help", "--version"]
        let declared = try declared().filter { $0.names.isDisjoint(with: answeredElsewhere) }
        XCTAssertEqual(declared.count, StanzaqCommand.declaredOptions.count)
        for option in declared {
            let line = StanzaqCommand.declaredOptions.first { !option.names.isDisjoint(with: $0.names) }
            XCTAssertEqual(line.map { Set($0.names) }, option.names)
            XCTAssertEqual(line?.value, option.value, "\(option.names)")
            XCTAssertEqual(line?.repeats, option.repeats, "\(option.names)")
        }
    }

    /// Values of each kind the options take, and some that they do not.
    private let sampleValues = ["3", "json", "in", "always", "auth,jids", "x", "-x", "-", "", "0x1"]

    /// Each option by each name, given twice, each value its type takes in
    /// both spellings, one it does not; ArgumentParser parses slowly in a debug
    /// build, so the lines are few.
    func testEveryOptionParsesAsArgumentParserParsesIt() {
        var parsed = 0
        for option in StanzaqCommand.declaredOptions {
            var lines = option.names.map { [$0, "/", "a.xml"] } + [["/", option.names[0], option.names.last!]]
            if option.value != nil {
                var scratch = StanzaqCommand.unset
                let taken = sampleValues.filter { option.set(&scratch, $0) }
                let refused = sampleValues.first { !taken.contains($0) }
                lines = (taken + [refused].compactMap { $0 }).map { [option.names[0], $0, "/"] }
                    + taken.prefix(2).map { [option.names.last! + "=" + $0, option.names[0], "y", "/", "a.xml"] }
            }
            for arguments in lines where assertAgrees(arguments) { parsed += 1 }
        }
        XCTAssertGreaterThan(parsed, 150)
    }

    func testOperandsAndTheTerminator() {
        for arguments in [["body#"], ["/@id", "a.xml", "-"], ["{urn:xmpp:delay}delay@stamp|datetime", "x", "y", "z"],
                          ["/", "--"], ["--", "-c", "/"], ["-m3", "/"], ["/", "", "a"], ["-c", "--", "--json"]] {
            XCTAssertTrue(assertAgrees(arguments), "\(arguments) is left to ArgumentParser")
        }
    }

    func testWhatItIsNotSureOfIsLeftToArgumentParser() {
        for arguments in [[], ["-cH", "/"], ["-m=3", "/"], ["--count=x", "/"], ["--threads=", "/"],
                          ["-m", "-1", "/"], ["--nope", "/"], ["-x", "/"], ["/", "-e"], ["--help"], ["-h"],
                          ["--color", "sometimes", "/"], ["-o", "xml", "/"], ["-m", "three", "/"]] {
            XCTAssertNil(quickOutcome(arguments), "\(arguments)")
        }
    }

    /// Random command lines of options, values and operands (seeded: the same
    /// lines every run).
    func testRandomCommandLines() {
        var random = SeededGenerator(seed: 42)
        let names = StanzaqCommand.declaredOptions.flatMap(\.names) + ["--", "-", "-cH", "--nope", "-m3"]
        let operands = ["/", "body#", "a.xml", "-", "{jabber:client}message@id"]
        var parsed = 0
        for _ in 0..<300 {
            var arguments: [String] = []
            for _ in 0..<Int.random(in: 1...6, using: &random) {
                switch Int.random(in: 0..<3, using: &random) {
                case 0: arguments.append(names.randomElement(using: &random)!)
                case 1: arguments.append(sampleValues.randomElement(using: &random)!)
                default: arguments.append(operands.randomElement(using: &random)!)
                }
            }
            if assertAgrees(arguments) { parsed += 1 }
        }
        XCTAssertGreaterThan(parsed, 50)
    }
}
