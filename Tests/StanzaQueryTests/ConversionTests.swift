import XCTest
@testable import StanzaQuery
@testable import StanzaXML
@testable import StanzaLogs

/// stanzaq-query(7), CONVERSIONS: every row of the table, lenient and strict.
/// Strict validates and never changes an answer: every strict case below
/// either gives what the lenient conversion gives, or an error.
final class ConversionTests: XCTestCase {

    /// The text rendering of `conversion` applied to `input`, or nil for "no result".
    private func convert(_ conversion: Conversion, _ input: String, strict: Bool = false,
                         file: StaticString = #filePath, line: UInt = #line) -> String? {
        do {
            return try conversion.apply(to: input, strict: strict)?.text
        } catch {
            XCTFail("\(conversion)(\(input)) threw \(error)", file: file, line: line)
            return "<error>"
        }
    }

    /// The message of the error a strict conversion throws.
    private func strictError(_ conversion: Conversion, _ input: String,
                             file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            let value = try conversion.apply(to: input, strict: true)
            XCTFail("strict \(conversion)(\(input)) gave \(String(describing: value?.text))", file: file, line: line)
            return "<no error>"
        } catch {
            return error.message
        }
    }

    // MARK: bool

    func testBool() {
        XCTAssertEqual(convert(.bool, "true"), "true")
        XCTAssertEqual(convert(.bool, "1"), "true")
        XCTAssertEqual(convert(.bool, "false"), "false")
        XCTAssertEqual(convert(.bool, "0"), "false")
        XCTAssertEqual(convert(.bool, "TRUE"), "false")
        XCTAssertEqual(convert(.bool, "yes"), "false")
        XCTAssertEqual(convert(.bool, "2"), "false")
        XCTAssertEqual(convert(.bool, ""), "false")
        XCTAssertEqual(convert(.bool, " true"), "false")
        XCTAssertEqual(try Conversion.bool.apply(to: "1"), .bool(true))
    }

    func testStrictBool() {
        XCTAssertEqual(convert(.bool, "true", strict: true), "true")
        XCTAssertEqual(convert(.bool, "1", strict: true), "true")
        XCTAssertEqual(convert(.bool, "false", strict: true), "false")
        XCTAssertEqual(convert(.bool, "0", strict: true), "false")
        // Whitespace that bool does not skip makes the value invalid (without
        // --strict, " 1" is false; with it, it must not become true).
        XCTAssertEqual(strictError(.bool, " 1"), "' 1' is not a boolean (true, false, 1 or 0) (|bool)")
        XCTAssertEqual(strictError(.bool, " true\n"), "' true\\n' is not a boolean (true, false, 1 or 0) (|bool)")
        XCTAssertEqual(strictError(.bool, "yes"), "'yes' is not a boolean (true, false, 1 or 0) (|bool)")
        XCTAssertEqual(strictError(.bool, "TRUE"), "'TRUE' is not a boolean (true, false, 1 or 0) (|bool)")
        XCTAssertEqual(strictError(.bool, ""), "'' is not a boolean (true, false, 1 or 0) (|bool)")
    }

    // MARK: int

    func testInt() {
        XCTAssertEqual(convert(.int, "42"), "42")
        XCTAssertEqual(convert(.int, "-17"), "-17")
        XCTAssertEqual(convert(.int, "+5"), "5")
        XCTAssertEqual(convert(.int, "  \t\n12abc"), "12")
        XCTAssertEqual(convert(.int, "12.9"), "12")
        XCTAssertEqual(convert(.int, "007"), "7")
        XCTAssertEqual(convert(.int, "abc"), "0")
        XCTAssertEqual(convert(.int, ""), "0")
        XCTAssertEqual(convert(.int, "-"), "0")
        XCTAssertEqual(convert(.int, "- 5"), "0")
        XCTAssertEqual(convert(.int, "0x1F"), "0")
        XCTAssertEqual(try Conversion.int.apply(to: "42"), .int(42))
    }

    func testIntSaturates() {
        XCTAssertEqual(convert(.int, "9223372036854775807"), "9223372036854775807")
        XCTAssertEqual(convert(.int, "9223372036854775808"), "9223372036854775807")
        XCTAssertEqual(convert(.int, "123456789012345678901234567890"), "9223372036854775807")
        XCTAssertEqual(convert(.int, "-9223372036854775808"), "-9223372036854775808")
        XCTAssertEqual(convert(.int, "-9223372036854775809"), "-9223372036854775808")
        XCTAssertEqual(convert(.int, "-99999999999999999999x"), "-9223372036854775808")
    }

    func testStrictInt() {
        XCTAssertEqual(convert(.int, "42", strict: true), "42")
        // Leading whitespace is skipped by int itself; trailing is not.
        XCTAssertEqual(convert(.int, " -42", strict: true), "-42")
        XCTAssertEqual(convert(.int, " -42"), "-42")
        XCTAssertEqual(convert(.int, "+7", strict: true), "7")
        XCTAssertEqual(convert(.int, "-9223372036854775808", strict: true), "-9223372036854775808")
        let range = "an integer from -9223372036854775808 to 9223372036854775807 (|int)"
        XCTAssertEqual(strictError(.int, "12abc"), "'12abc' is not \(range)")
        XCTAssertEqual(strictError(.int, "12.0"), "'12.0' is not \(range)")
        XCTAssertEqual(strictError(.int, "abc"), "'abc' is not \(range)")
        XCTAssertEqual(strictError(.int, ""), "'' is not \(range)")
        XCTAssertEqual(strictError(.int, "9223372036854775808"), "'9223372036854775808' is not \(range)")
        XCTAssertEqual(strictError(.int, "+-5"), "'+-5' is not \(range)")
        XCTAssertEqual(strictError(.int, "1 2"), "'1 2' is not \(range)")
        XCTAssertEqual(strictError(.int, " -42 "), "' -42 ' is not \(range)")
    }

    // MARK: uint

    func testUint() {
        XCTAssertEqual(convert(.uint, "42"), "42")
        XCTAssertEqual(convert(.uint, "-1"), "18446744073709551615")
        XCTAssertEqual(convert(.uint, "-2abc"), "18446744073709551614")
        XCTAssertEqual(convert(.uint, "abc"), "0")
        // The same number as int (saturated), reinterpreted.
        XCTAssertEqual(convert(.uint, "18446744073709551615"), "9223372036854775807")
        XCTAssertEqual(convert(.uint, "-9223372036854775809"), "9223372036854775808")
        XCTAssertEqual(try Conversion.uint.apply(to: "-1"), .uint(18446744073709551615))
    }

    func testStrictUint() {
        XCTAssertEqual(convert(.uint, "42", strict: true), "42")
        XCTAssertEqual(convert(.uint, "0", strict: true), "0")
        XCTAssertEqual(convert(.uint, " +42", strict: true), "42")
        XCTAssertEqual(convert(.uint, "9223372036854775807", strict: true), "9223372036854775807")
        // Above Int64.max uint saturates (the same number as int): strict says so
        // instead of giving another answer.
        let range = "an integer from 0 to 9223372036854775807 (|uint)"
        XCTAssertEqual(convert(.uint, "18446744073709551615"), "9223372036854775807")
        XCTAssertEqual(strictError(.uint, "18446744073709551615"), "'18446744073709551615' is not \(range)")
        XCTAssertEqual(strictError(.uint, "9223372036854775808"), "'9223372036854775808' is not \(range)")
        XCTAssertEqual(strictError(.uint, " +42\t"), "' +42\\t' is not \(range)")
        XCTAssertEqual(strictError(.uint, "-1"), "'-1' is not \(range)")
        XCTAssertEqual(strictError(.uint, "18446744073709551616"), "'18446744073709551616' is not \(range)")
        XCTAssertEqual(strictError(.uint, "4x"), "'4x' is not \(range)")
        XCTAssertEqual(strictError(.uint, "++5"), "'++5' is not \(range)")
    }

    // MARK: double

    func testDouble() {
        XCTAssertEqual(convert(.double, "1.5"), "1.5")
        XCTAssertEqual(convert(.double, "1.5abc"), "1.5")
        XCTAssertEqual(convert(.double, "  -2.25"), "-2.25")
        XCTAssertEqual(convert(.double, "1e3"), "1000")
        XCTAssertEqual(convert(.double, "1E-2"), "0.01")
        XCTAssertEqual(convert(.double, ".5"), "0.5")
        XCTAssertEqual(convert(.double, "3."), "3")
        XCTAssertEqual(convert(.double, "0.1"), "0.1")
        // NSString's doubleValue reads decimal numbers only: not strtod's
        // inf, nan or hexadecimal forms (their leading "0" aside).
        XCTAssertEqual(convert(.double, "inf"), "0")
        XCTAssertEqual(convert(.double, "info1"), "0")
        XCTAssertEqual(convert(.double, "-infinity"), "0")
        XCTAssertEqual(convert(.double, "nan"), "0")
        XCTAssertEqual(convert(.double, "NAN(123)"), "0")
        XCTAssertEqual(convert(.double, "0x1F"), "0")
        XCTAssertEqual(convert(.double, "0x1p3"), "0")
        XCTAssertEqual(convert(.double, "1e"), "1")
        XCTAssertEqual(convert(.double, "1e+"), "1")
        XCTAssertEqual(convert(.double, "2.5e1kg"), "25")
        XCTAssertEqual(convert(.double, "."), "0")
        XCTAssertEqual(convert(.double, "-.5"), "-0.5")
        XCTAssertEqual(convert(.double, "+-1"), "0")
        // Overflow is infinity, as Apple's Foundation gives.
        XCTAssertEqual(convert(.double, "1e400"), "inf")
        XCTAssertEqual(convert(.double, "-1e400"), "-inf")
        XCTAssertEqual(convert(.double, "abc"), "0")
        XCTAssertEqual(convert(.double, ""), "0")
        XCTAssertEqual(convert(.double, "-0"), "-0")
        XCTAssertEqual(convert(.double, "123456789012345"), "123456789012345")
        XCTAssertEqual(convert(.double, "5242880"), "5242880")
        XCTAssertEqual(try Conversion.double.apply(to: "1e3"), .double(1000))
    }

    func testDoubleJSON() throws {
        XCTAssertEqual(try Conversion.double.apply(to: "1.5")?.json, "1.5")
        XCTAssertEqual(try Conversion.double.apply(to: "1e3")?.json, "1000")
        XCTAssertEqual(try Conversion.double.apply(to: "inf")?.json, "0")
        XCTAssertEqual(try Conversion.double.apply(to: "nan")?.json, "0")
        XCTAssertEqual(try Conversion.double.apply(to: "1e400")?.json, "null")
    }

    func testStrictDouble() {
        XCTAssertEqual(convert(.double, "1.5", strict: true), "1.5")
        XCTAssertEqual(convert(.double, " 1e3", strict: true), "1000")
        XCTAssertEqual(convert(.double, "-.5", strict: true), "-0.5")
        XCTAssertEqual(convert(.double, "5.", strict: true), "5")
        XCTAssertEqual(convert(.double, "+2E+2", strict: true), "200")
        XCTAssertEqual(strictError(.double, "1.5abc"), "'1.5abc' is not a finite decimal number (|double)")
        XCTAssertEqual(strictError(.double, "inf"), "'inf' is not a finite decimal number (|double)")
        XCTAssertEqual(strictError(.double, "nan"), "'nan' is not a finite decimal number (|double)")
        XCTAssertEqual(strictError(.double, "."), "'.' is not a finite decimal number (|double)")
        XCTAssertEqual(strictError(.double, "1e"), "'1e' is not a finite decimal number (|double)")
        XCTAssertEqual(strictError(.double, ""), "'' is not a finite decimal number (|double)")
        XCTAssertEqual(strictError(.double, " 1e3 "), "' 1e3 ' is not a finite decimal number (|double)")
        XCTAssertEqual(strictError(.double, "0x1F"), "'0x1F' is not a finite decimal number (|double)")
        // Infinity is what double gives for 1e400 without --strict; strict says it overflowed.
        XCTAssertEqual(strictError(.double, "1e400"), "'1e400' is not a finite decimal number (|double)")
    }

    // MARK: datetime

    func testDatetime() {
        XCTAssertEqual(convert(.datetime, "2002-09-10T23:08:25Z"), "2002-09-10T23:08:25Z")
        XCTAssertEqual(convert(.datetime, "2002-09-10T23:08:25.123Z"), "2002-09-10T23:08:25.123Z")
        XCTAssertEqual(convert(.datetime, "2002-09-10T23:08:25.500000Z"), "2002-09-10T23:08:25.5Z")
        XCTAssertEqual(convert(.datetime, "2002-09-10T23:08:25.000Z"), "2002-09-10T23:08:25Z")
        // Fractions of any length, kept to the microsecond (stanzaq-query(7), COMPATIBILITY, decision 9).
        XCTAssertEqual(convert(.datetime, "2002-09-10T23:08:25.1234567891Z"), "2002-09-10T23:08:25.123456Z")
        XCTAssertEqual(convert(.datetime, "2002-09-10T23:08:25.000001Z"), "2002-09-10T23:08:25.000001Z")
        // Offsets.
        XCTAssertEqual(convert(.datetime, "2002-09-10T23:08:25+02:00"), "2002-09-10T21:08:25Z")
        XCTAssertEqual(convert(.datetime, "2002-09-10T23:08:25-05:30"), "2002-09-11T04:38:25Z")
        XCTAssertEqual(convert(.datetime, "2002-09-10T23:08:25.75-00:00"), "2002-09-10T23:08:25.75Z")
        // Without the colon, as Monal's second formatter reads it.
        XCTAssertEqual(convert(.datetime, "2002-09-10T23:08:25+0200"), "2002-09-10T21:08:25Z")
        XCTAssertEqual(convert(.datetime, "2002-09-10T23:08:25.5-0530"), "2002-09-11T04:38:25.5Z")
        XCTAssertEqual(convert(.datetime, "2000-01-01T00:30:00+01:00"), "1999-12-31T23:30:00Z")
        XCTAssertEqual(convert(.datetime, "2024-02-29T12:00:00Z"), "2024-02-29T12:00:00Z")
        XCTAssertEqual(convert(.datetime, "1969-12-31T23:59:59.5Z"), "1969-12-31T23:59:59.5Z")
    }

    func testDatetimeInvalidIsNoResult() {
        for invalid in [
            "2002-09-10", "2002-09-10T23:08:25", "2002-09-10T23:08Z", "2002-09-10 23:08:25Z",
            "2002-13-10T23:08:25Z", "2002-02-29T00:00:00Z", "2002-09-31T00:00:00Z", "2002-09-10T24:00:00Z",
            "2002-09-10T23:60:00Z", "2002-09-10T23:08:60Z", "2002-09-10T23:08:25.Z", "2002-09-10T23:08:25+02",
            "2002-09-10T23:08:25+020", "2002-09-10T23:08:25+2400", "2002-09-10T23:08:25+0260",
            " 2002-09-10T23:08:25Z", "2002-09-10T23:08:25Z\n", "2002-09-10T23:08:25Zjunk", "not a date", "",
        ] {
            XCTAssertNil(convert(.datetime, invalid), invalid)
        }
    }

    func testDatetimeEpochRendering() throws {
        func epoch(_ input: String) throws -> String {
            var out: [UInt8] = []
            try Conversion.datetime.apply(to: input)?.writeText(into: &out, options: RenderOptions(epoch: true))
            return String(decoding: out, as: UTF8.self)
        }
        XCTAssertEqual(try epoch("2002-09-10T23:08:25Z"), "1031699305")
        XCTAssertEqual(try epoch("2002-09-10T23:08:25.25Z"), "1031699305.25")
        XCTAssertEqual(try epoch("1970-01-01T00:00:00Z"), "0")
        XCTAssertEqual(try epoch("1969-12-31T23:59:59.5Z"), "-0.5")
        XCTAssertEqual(try epoch("1969-12-31T23:59:58Z"), "-2")
        var json: [UInt8] = []
        try Conversion.datetime.apply(to: "2002-09-10T23:08:25.5Z")?.writeJSON(into: &json, options: RenderOptions(epoch: true))
        XCTAssertEqual(String(decoding: json, as: UTF8.self), "1031699305.5")
        XCTAssertEqual(try Conversion.datetime.apply(to: "2002-09-10T23:08:25.5+01:00")?.json, "\"2002-09-10T22:08:25.5Z\"")
    }

    func testDateTimeType() throws {
        let value = try XCTUnwrap(DateTime(xep0082: "2002-09-10T23:08:25.123456Z"))
        XCTAssertEqual(value, DateTime(seconds: 1031699305, microseconds: 123456))
        XCTAssertEqual(value.iso8601, "2002-09-10T23:08:25.123456Z")
        XCTAssertEqual(value.epochString, "1031699305.123456")
        XCTAssertLessThan(DateTime(seconds: 1), DateTime(seconds: 1, microseconds: 1))
        XCTAssertNil(DateTime(xep0082: "2002-09-10T23:08:25"))
    }

    private let dateTime = "an XEP-0082 date and time (YYYY-MM-DDThh:mm:ss[.sss] then Z, ±hh:mm or ±hhmm)"

    func testStrictDatetime() {
        XCTAssertEqual(convert(.datetime, "2002-09-10T23:08:25+0100", strict: true), "2002-09-10T22:08:25Z")
        XCTAssertEqual(strictError(.datetime, " 2002-09-10T23:08:25Z\n"),
                       "' 2002-09-10T23:08:25Z\\n' is not \(dateTime) (|datetime)")
        XCTAssertEqual(strictError(.datetime, "2002-09-10"),
                       "'2002-09-10' is not \(dateTime) (|datetime)")
        XCTAssertEqual(strictError(.datetime, "yesterday"),
                       "'yesterday' is not \(dateTime) (|datetime)")
    }

    // MARK: base64

    func testBase64() throws {
        XCTAssertEqual(try Conversion.base64.apply(to: "aGVsbG8="), .data(Array("hello".utf8)))
        XCTAssertEqual(convert(.base64, "aGVsbG8="), "hello")
        XCTAssertEqual(try Conversion.base64.apply(to: "aGVsbG8=")?.json, "\"aGVsbG8=\"")
        // Characters outside the alphabet are ignored.
        XCTAssertEqual(convert(.base64, "aGVs\nbG8=\n"), "hello")
        XCTAssertEqual(convert(.base64, " aGVs*bG8= "), "hello")
        XCTAssertEqual(convert(.base64, "aG!Vs.bG-8="), "hello")
        XCTAssertEqual(try Conversion.base64.apply(to: "/w==")?.json, "\"/w==\"")
        XCTAssertEqual(try Conversion.base64.apply(to: "/w=="), .data([0xFF]))
        XCTAssertEqual(try Conversion.base64.apply(to: "+/8="), .data([0xFB, 0xFF]))
        XCTAssertEqual(try Conversion.base64.apply(to: ""), .data([]))
        XCTAssertEqual(try Conversion.base64.apply(to: " \n "), .data([]))
        XCTAssertEqual(convert(.base64, "aGVsbG8g d29ybGQ="), "hello world")
        XCTAssertEqual(convert(.base64, "aGVsbG8=\n"), "hello")
        XCTAssertEqual(convert(.base64, "aGVsbG8=*"), "hello")
    }

    func testBase64InvalidIsNoResult() {
        XCTAssertNil(convert(.base64, "abc"))
        XCTAssertNil(convert(.base64, "a"))
        XCTAssertNil(convert(.base64, "abcde"))
        XCTAssertNil(convert(.base64, "aGVsbG8"))
        XCTAssertNil(convert(.base64, "===="))
        XCTAssertNil(convert(.base64, "!!!!a"))
        // Never a decoded prefix: data after the padding, or padding inside.
        XCTAssertNil(convert(.base64, "aGVsbG8=A"))
        XCTAssertNil(convert(.base64, "aGVsbG8=d29ybGQ="))
        XCTAssertNil(convert(.base64, "aGVsbG8=\n="))
        XCTAssertNil(convert(.base64, "aGVs=bG8="))
        XCTAssertNil(convert(.base64, "aGV==="))
        XCTAssertNil(convert(.base64, "a==="))
        XCTAssertNil(convert(.base64, "aGVsb==="))
        XCTAssertNil(convert(.base64, "="))
    }

    func testStrictBase64() {
        XCTAssertEqual(convert(.base64, " aGVs\nbG8= ", strict: true), "hello")
        XCTAssertEqual(strictError(.base64, "abc"), "'abc' is not valid base64 (|base64)")
        XCTAssertEqual(strictError(.base64, "aGVsbG8=A"), "'aGVsbG8=A' is not valid base64 (|base64)")
    }

    // MARK: uuid

    func testUuid() throws {
        XCTAssertEqual(convert(.uuid, "3F2504E0-4F89-11D3-9A0C-0305E82C3301"), "3F2504E0-4F89-11D3-9A0C-0305E82C3301")
        XCTAssertEqual(convert(.uuid, "3f2504e0-4f89-11d3-9a0c-0305e82c3301"), "3F2504E0-4F89-11D3-9A0C-0305E82C3301")
        XCTAssertEqual(try Conversion.uuid.apply(to: "3f2504e0-4f89-11d3-9a0c-0305e82c3301")?.json, "\"3F2504E0-4F89-11D3-9A0C-0305E82C3301\"")
        for invalid in ["3F2504E0-4F89-11D3-9A0C", "3F2504E04F8911D39A0C0305E82C3301", "{3F2504E0-4F89-11D3-9A0C-0305E82C3301}",
                        "3F2504E0-4F89-11D3-9A0C-0305E82C330G", "hello", "",
                        // Foundation's UUID(uuidString:) is lenient with these on some platforms.
                        " 3F2504E0-4F89-11D3-9A0C-0305E82C3301", "3F2504E0-4F89-11D3-9A0C-0305E82C3301 ",
                        "+3F2504E-4F89-11D3-9A0C-0305E82C3301", "3F2504E0-+F89-11D3-9A0C-0305E82C3301",
                        "3F2504E0-4F89-11D3--A0C-0305E82C3301", "3F2504E0-4F89-11D3-9A0C-0305E82C3301\n",
                        "3F2504E0_4F89_11D3_9A0C_0305E82C3301", "3F2504E0-4F89-11D3-9A0C0-305E82C3301"] {
            XCTAssertNil(convert(.uuid, invalid), invalid)
        }
    }

    func testStrictUuid() {
        XCTAssertEqual(convert(.uuid, "3f2504e0-4f89-11d3-9a0c-0305e82c3301", strict: true), "3F2504E0-4F89-11D3-9A0C-0305E82C3301")
        XCTAssertEqual(strictError(.uuid, " 3f2504e0-4f89-11d3-9a0c-0305e82c3301 "),
                       "' 3f2504e0-4f89-11d3-9a0c-0305e82c3301 ' is not a UUID (8-4-4-4-12 hexadecimal digits) (|uuid)")
        XCTAssertEqual(strictError(.uuid, "hello"), "'hello' is not a UUID (8-4-4-4-12 hexadecimal digits) (|uuid)")
    }

    // MARK: uuidcast

    func testUuidcast() {
        XCTAssertEqual(convert(.uuidcast, "hello"), "2CF24DBA-5FB0-A34E-26E8-3B2AC5B9E29E")
        XCTAssertEqual(convert(.uuidcast, ""), "E3B0C442-98FC-1C44-9AFB-F4C8996FB924")
        XCTAssertEqual(convert(.uuidcast, "3f2504e0-4f89-11d3-9a0c-0305e82c3301"), "3F2504E0-4F89-11D3-9A0C-0305E82C3301")
        // Not exactly a UUID: hashed, never read leniently.
        XCTAssertEqual(convert(.uuidcast, " 3f2504e0-4f89-11d3-9a0c-0305e82c3301"),
                       uuidCast(" 3f2504e0-4f89-11d3-9a0c-0305e82c3301").uuidString)
        XCTAssertNotEqual(convert(.uuidcast, " 3f2504e0-4f89-11d3-9a0c-0305e82c3301"), "3F2504E0-4F89-11D3-9A0C-0305E82C3301")
        XCTAssertEqual(convert(.uuidcast, "+3f2504e-4f89-11d3-9a0c-0305e82c3301"),
                       uuidCast("+3f2504e-4f89-11d3-9a0c-0305e82c3301").uuidString)
        XCTAssertEqual(uuidCast("hello").uuidString, "2CF24DBA-5FB0-A34E-26E8-3B2AC5B9E29E")
    }

    func testStrictUuidcastNeverFails() {
        XCTAssertEqual(convert(.uuidcast, "hello", strict: true), "2CF24DBA-5FB0-A34E-26E8-3B2AC5B9E29E")
        // The same answer as without --strict: " hello\n" is hashed as it is.
        XCTAssertEqual(convert(.uuidcast, " hello\n", strict: true), convert(.uuidcast, " hello\n"))
        XCTAssertEqual(convert(.uuidcast, " hello\n"), uuidCast(" hello\n").uuidString)
        XCTAssertNotEqual(convert(.uuidcast, " hello\n"), "2CF24DBA-5FB0-A34E-26E8-3B2AC5B9E29E")
    }

    // MARK: Through queries

    let values = """
        <x flag='1' n='-1' d='2.5e1kg' t='2002-09-10T23:08:25Z' bad='never' b='aGVsbG8=' u='3f2504e0-4f89-11d3-9a0c-0305e82c3301' w=' 7 '/>
        """

    func testConversionsInQueries() {
        let s = stanza(values)
        XCTAssertEqual(texts("/@flag|bool", in: s), ["true"])
        XCTAssertEqual(texts("/@n|int", in: s), ["-1"])
        XCTAssertEqual(texts("/@n|uint", in: s), ["18446744073709551615"])
        XCTAssertEqual(texts("/@d|double", in: s), ["25"])
        XCTAssertEqual(texts("/@t|datetime", in: s), ["2002-09-10T23:08:25Z"])
        XCTAssertEqual(texts("/@bad|datetime", in: s), [])
        XCTAssertEqual(texts("/@b|base64", in: s), ["hello"])
        XCTAssertEqual(texts("/@u|uuid", in: s), ["3F2504E0-4F89-11D3-9A0C-0305E82C3301"])
        XCTAssertEqual(texts("/@bad|uuid", in: s), [])
        XCTAssertEqual(texts("/@bad|uuidcast", in: s), [uuidCast("never").uuidString])
        XCTAssertEqual(texts("/$|uuidcast", in: s), [uuidCast("x").uuidString])
        XCTAssertEqual(texts("/$|bool", in: s), ["false"])
        XCTAssertEqual(jsons("/@n|int", in: s), ["-1"])
        XCTAssertEqual(jsons("/@flag|bool", in: s), ["true"])
        // A missing attribute is no result, not a converted empty string.
        XCTAssertEqual(texts("/@missing|bool", in: s), [])
        XCTAssertEqual(texts("/@missing|int", in: s), [])
    }

    func testStrictConversionsInQueries() {
        let s = stanza(values)
        XCTAssertEqual(texts("/@w|int", in: s), ["7"])
        XCTAssertEqual(evaluationError("/@w|int", in: s, strict: true),
                       "' 7 ' is not an integer from -9223372036854775808 to 9223372036854775807 (|int)")
        XCTAssertEqual(texts("/@flag|bool", in: s, strict: true), ["true"])
        XCTAssertEqual(evaluationError("/@d|double", in: s, strict: true), "'2.5e1kg' is not a finite decimal number (|double)")
        XCTAssertEqual(evaluationError("/@bad|datetime", in: s, strict: true),
                       "'never' is not \(dateTime) (|datetime)")
        XCTAssertEqual(evaluationError("/@bad|uuid", in: s, strict: true), "'never' is not a UUID (8-4-4-4-12 hexadecimal digits) (|uuid)")
        XCTAssertEqual(evaluationError("/@bad|bool", in: s, strict: true), "'never' is not a boolean (true, false, 1 or 0) (|bool)")
        XCTAssertEqual(evaluationError("/@n|uint", in: s, strict: true), "'-1' is not an integer from 0 to 9223372036854775807 (|uint)")
        // Missing values are still simply no result.
        XCTAssertEqual(texts("/@missing|int", in: s, strict: true), [])
    }

    /// --strict validates and never changes an answer: on every input, each
    /// conversion gives with it what it gives without it, or an error.
    func testStrictNeverChangesAnAnswer() throws {
        let inputs = ["1", " 1", "true", "false", "0", "-0", "+7", " 42", "42 ", "18446744073709551615",
                      "-1", "9223372036854775808", "1e400", "-1e400", "1.5", " 1.5", "info1", "nan", "0x1F",
                      "2002-09-10T23:08:25Z", " 2002-09-10T23:08:25Z", "2002-09-10T23:08:25+0200",
                      "aGVsbG8=", "aGVsbG8=A", " aGVs bG8= ", "3f2504e0-4f89-11d3-9a0c-0305e82c3301",
                      " 3f2504e0-4f89-11d3-9a0c-0305e82c3301", "", " ", "hello"]
        for conversion in Conversion.allCases {
            for input in inputs {
                let lenient = try conversion.apply(to: input)
                if let strict = try? conversion.apply(to: input, strict: true) {
                    XCTAssertEqual(strict, lenient, "\(conversion) of \(input.debugDescription)")
                }
            }
        }
    }

    /// A long value is shortened in the message, and kept on one line: control
    /// characters (C0, DEL, C1) escaped, so that it cannot forge a line or drive the terminal.
    func testStrictMessageShortensLongValues() {
        let long = String(repeating: "x", count: 100)
        XCTAssertEqual(strictError(.int, long),
                       "'\(String(repeating: "x", count: 60))…' is not an integer from -9223372036854775808 to 9223372036854775807 (|int)")
        XCTAssertEqual(strictError(.bool, "a\r\nb\u{1}\u{7F}\u{9B}\u{A0}é"),
                       "'a\\r\\nb\\x01\\x7f\\x9b\u{A0}é' is not a boolean (true, false, 1 or 0) (|bool)")
    }

    /// Strict checks every result, also when only the first is asked for (Monal's
    /// findFirst: evaluates the whole query), and only validates.
    func testStrictChecksEveryResultOfFindFirst() throws {
        let s = stanza("<m><v>1</v><v>x</v></m>")
        let query = try Query("v#|int")
        XCTAssertEqual(try query.findFirst(in: s), .int(1))
        XCTAssertThrowsError(try query.findFirst(in: s, strict: true)) { error in
            XCTAssertEqual((error as? EvaluationError)?.message,
                           "'x' is not an integer from -9223372036854775808 to 9223372036854775807 (|int)")
        }
        XCTAssertThrowsError(try query.check(in: s, strict: true))
        let valid = stanza("<m><v>1</v><v>2</v></m>")
        XCTAssertEqual(try query.findFirst(in: valid, strict: true), .int(1))
        XCTAssertEqual(try query.check(in: valid, strict: true), true)
    }
}
