#if canImport(StanzaXML)
import StanzaXML
#endif

/// Rows exported from a message archive, one row a line, one column of which
/// holds a stanza's XML; the other columns become the stanza's fields.
///
/// - JSON: `sqlite3 -json` (one object a line, inside `[`…`]` and separated by
///   commas, as sqlite3's shell.c writes it), or JSON Lines (`jq -c`). Prosody's
///   SQL archive (mod_storage_sql's `prosodyarchive` table) keeps the stanza in
///   `value`, its time in `when`.
/// - TSV: `mysql -B` or `psql -A -F$'\t'` with a header row; mysql escapes tab,
///   newline, backslash and NUL as `\t`, `\n`, `\\`, `\0`. ejabberd's SQL
///   archive (the `archive` table of sql/mysql.sql) keeps the stanza in `xml`,
///   its time in `timestamp` (microseconds) and `created_at`.
///
/// The XML column is the one named `xml`, `value`, `stanza` or `data` whose
/// value starts with `<`, or else the first whose value starts with `<`. The
/// time is the column named `created_at`, `when`, `time` or `timestamp` (the first
/// of these that the row has).
final class ArchiveRowParser: LogLineParser {
    enum Layout { case json, tsv }
    let layout: Layout
    private(set) var columns: [String]?
    /// (Only a TSV header row is kept from line to line: handed on.)
    var handover: LogParserState? {
        LogParserState(values: columns.map { $0.map { Array($0.utf8) } } ?? [])
    }

    func resume(from state: LogParserState) {
        columns = state.values.isEmpty ? nil : state.values.map { String(decoding: $0, as: UTF8.self) }
    }

    init(layout: Layout) {
        self.layout = layout
    }

    static func recognisesJSON(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = line.skippingBlanks(from: 0)
        if index < line.count, line[index] == 0x5B || line[index] == 0x2C { index = line.skippingBlanks(from: index + 1) }
        return line.has("{\"", at: index) && line.firstRange(of: "\"<", from: index) != nil
    }

    static func recognisesTSV(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard line.firstIndex(of: 0x09, from: 0) != nil else { return false }
        return line.firstRange(of: "\t<") != nil || line.has("<") && line.firstRange(of: ">\t") != nil
    }

    /// The columns that hold a row's time, the preferred first.
    private static let timeColumns = ["created_at", "when", "time", "timestamp"]

    func parse(_ line: UnsafeBufferPointer<UInt8>) -> ParsedLine {
        let cells: [(name: String?, value: [UInt8], start: Int)]
        switch layout {
        case .json:
            guard let object = JSONRowDecoder.decodeObject(line) else { return .text }
            cells = object.map { ($0.key, $0.value, $0.start) }
        case .tsv:
            let values = Self.tsvCells(line)
            if columns == nil, !values.contains(where: { $0.value.first == 0x3C }) {
                columns = values.map { String(decoding: $0.value, as: UTF8.self) }   // the header row
                return .text
            }
            cells = values.enumerated().map { index, cell in
                (columns.flatMap { index < $0.count ? $0[index] : nil }, cell.value, cell.start)
            }
        }
        let startsXML: (Int) -> Bool = { index in
            let value = cells[index].value
            let first = value.firstIndex { !isXMLSpace($0) }
            return first.map { value[$0] == 0x3C } ?? false
        }
        let named = cells.indices.first { index in
            ["xml", "value", "stanza", "data"].contains(cells[index].name?.lowercased() ?? "") && startsXML(index)
        }
        guard let xml = named ?? cells.indices.first(where: startsXML) else { return .text }
        var header = RecordHeader()
        header.shape = .wholeStanzas
        var timeRank = Int.max
        for (index, cell) in cells.enumerated() where index != xml {
            let name = cell.name ?? String(index + 1)
            let value = String(decoding: cell.value, as: UTF8.self)
            if let rank = Self.timeColumns.firstIndex(of: name.lowercased()), rank < timeRank {
                header.time = value
                timeRank = rank
            }
            header.fields.append(LogField(name: name, value: value))
        }
        let start = cells[xml].start
        return ParsedLine(record: header, payload: start..<max(start, line.contentEnd), decoded: cells[xml].value)
    }

    /// The cells of a TSV row, with mysql's escapes undone.
    private static func tsvCells(_ line: UnsafeBufferPointer<UInt8>) -> [(value: [UInt8], start: Int)] {
        var cells: [(value: [UInt8], start: Int)] = []
        var current: [UInt8] = []
        var start = 0
        var index = 0
        let end = line.contentEnd
        while index < end {
            let byte = line[index]
            if byte == 0x09 {
                cells.append((current, start))
                current = []
                start = index + 1
            } else if byte == 0x5C, index + 1 < end {
                index += 1
                switch line[index] {
                case UInt8(ascii: "t"): current.append(0x09)
                case UInt8(ascii: "n"): current.append(0x0A)
                case UInt8(ascii: "r"): current.append(0x0D)
                case UInt8(ascii: "0"): current.append(0x00)
                default: current.append(line[index])
                }
            } else {
                current.append(byte)
            }
            index += 1
        }
        cells.append((current, start))
        return cells
    }
}

/// Decodes the one JSON object of a line: its keys and, as text, its values
/// (strings unescaped, numbers and literals as written).
enum JSONRowDecoder {
    static func decodeObject(_ line: UnsafeBufferPointer<UInt8>) -> [(key: String, value: [UInt8], start: Int)]? {
        var index = line.skippingBlanks(from: 0)
        if index < line.count, line[index] == 0x5B || line[index] == 0x2C { index = line.skippingBlanks(from: index + 1) }
        guard index < line.count, line[index] == 0x7B else { return nil }
        index += 1
        var members: [(key: String, value: [UInt8], start: Int)] = []
        while true {
            index = skipSpace(line, index)
            guard index < line.count else { return nil }
            if line[index] == 0x7D { return members }
            if line[index] == 0x2C { index += 1; continue }
            guard line[index] == 0x22, let key = string(line, &index) else { return nil }
            index = skipSpace(line, index)
            guard index < line.count, line[index] == 0x3A else { return nil }
            index = skipSpace(line, index + 1)
            guard index < line.count else { return nil }
            let start = index
            if line[index] == 0x22 {
                guard let value = string(line, &index) else { return nil }
                members.append((String(decoding: key, as: UTF8.self), value, start + 1))
            } else {
                guard skipValue(line, &index) else { return nil }
                let range = line.trimmed(start..<index)
                let text = Array(line[range])
                if text != Array("null".utf8) {
                    members.append((String(decoding: key, as: UTF8.self), text, start))
                }
            }
        }
    }

    /// Moves `index` past a value that is not a string: a number, true, false,
    /// null, or a nested object or array, kept as written (its strings skipped
    /// whole, so that a bracket or a comma in them does not end it); to the `,`
    /// or closing bracket after it. False if the text ends inside a string.
    static func skipValue(_ line: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> Bool {
        var depth = 0
        while index < line.count {
            let byte = line[index]
            if byte == 0x22 {
                index += 1
                while index < line.count, line[index] != 0x22 { index += line[index] == 0x5C ? 2 : 1 }
                guard index < line.count else { return false }
            } else if byte == 0x7B || byte == 0x5B {
                depth += 1
            } else if byte == 0x7D || byte == 0x5D {
                if depth == 0 { break }
                depth -= 1
            } else if byte == 0x2C && depth == 0 {
                break
            }
            index += 1
        }
        return true
    }

    private static func skipSpace(_ line: UnsafeBufferPointer<UInt8>, _ from: Int) -> Int {
        var index = from
        while index < line.count, isXMLSpace(line[index]) { index += 1 }
        return index
    }

    /// A JSON string starting at `index` (its quote); moves `index` past it.
    static func string(_ line: UnsafeBufferPointer<UInt8>, _ index: inout Int) -> [UInt8]? {
        var out: [UInt8] = []
        return string(line, &index, into: &out) ? out : nil
    }

    /// As ``string(_:_:)``, appended to `out`; false (`out` as it was, or
    /// longer) if the line ends inside the string.
    static func string(_ line: UnsafeBufferPointer<UInt8>, _ index: inout Int, into out: inout [UInt8]) -> Bool {
        index += 1
        while index < line.count {
            // The bytes up to the next quote or backslash, at once.
            var end = index
            while end < line.count, line[end] != 0x22, line[end] != 0x5C { end += 1 }
            if end > index { out.append(contentsOf: UnsafeBufferPointer(rebasing: line[index..<end])) }
            index = end
            guard index < line.count else { return false }
            if line[index] == 0x22 { index += 1; return true }
            guard index + 1 < line.count else { return false }
            index += 1
            switch line[index] {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(line, index + 1) else { return false }
                index += 4
                if scalar >= 0xD800, scalar < 0xDC00, line.has("\\u", at: index + 1), let low = hex4(line, index + 3),
                   low >= 0xDC00, low < 0xE000 {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                }
                out.append(contentsOf: UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}")!)
            default: out.append(line[index])
            }
            index += 1
        }
        return false
    }

    private static func hex4(_ line: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32? {
        guard at + 4 <= line.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            let byte = line[at + offset]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: return nil
            }
            value = value * 16 + digit
        }
        return value
    }
}

// MARK: - The format

extension LogFormat {
    public static let json = LogFormat(JSONArchiveRows.self)
}

/// `--log=json` in ``LogFormat/registry``.
enum JSONArchiveRows: CuttableLogFormat {
    static let name = "json"
    static let detectionRank: Int? = 10
    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool { ArchiveRowParser.recognisesJSON(line) }
    static func makeParser() -> any LogLineParser { ArchiveRowParser(layout: .json) }
}

extension LogFormat {
    public static let tsv = LogFormat(TSVArchiveRows.self)
}

/// `--log=tsv` in ``LogFormat/registry``.
enum TSVArchiveRows: CuttableLogFormat {
    static let name = "tsv"
    static let detectionRank: Int? = 12
    static func recognises(_ line: UnsafeBufferPointer<UInt8>) -> Bool { ArchiveRowParser.recognisesTSV(line) }
    static func makeParser() -> any LogLineParser { ArchiveRowParser(layout: .tsv) }
    static let sharesItsMarker = true

    /// The header row, from the first lines of the log.
    static func carriedState(after part: UnsafeBufferPointer<UInt8>, from state: LogParserState) -> LogParserState {
        guard state.values.isEmpty else { return state }
        let parser = ArchiveRowParser(layout: .tsv)
        parser.resume(from: state)
        var start = 0
        for _ in 0..<64 where start < part.count {
            let end = part.firstIndex(of: 0x0A, from: start) ?? part.count
            _ = withTerminalEscapesRemoved(UnsafeBufferPointer(rebasing: part[start..<end])) { parser.parse($0) }
            if parser.columns != nil { break }
            start = end + 1
        }
        return parser.handover ?? state
    }
}
