#if canImport(StanzaQuery)
import StanzaQuery
#endif

/// How results are laid out (stanzaq(1), OUTPUT).
public enum OutputFormat: String, CaseIterable, Sendable {
    case text, json, tsv
}

/// Colours for prefixes, as grep's defaults: file names magenta, stanza
/// numbers green, separators cyan.
public struct PrefixColors: Sendable {
    public var file = "\u{1B}[35m"
    public var number = "\u{1B}[32m"
    public var separator = "\u{1B}[36m"
    public var reset = "\u{1B}[0m"

    public init() {}
}

/// Turns results into records: prefixes, the chosen format, the separator.
public struct RecordFormatter {
    public var format: OutputFormat
    public var render: RenderOptions
    public var separator: [UInt8]
    public var withFilename: Bool
    public var withStanzaNumber: Bool
    public var colors: PrefixColors?

    public init(format: OutputFormat, render: RenderOptions = RenderOptions(), separator: [UInt8] = [UInt8(ascii: "\n")],
                withFilename: Bool = false, withStanzaNumber: Bool = false, colors: PrefixColors? = nil) {
        self.format = format
        self.render = render
        self.separator = separator
        self.withFilename = withFilename
        self.withStanzaNumber = withStanzaNumber
        self.colors = colors
    }

    /// The fields of a stanza read from a log to print with it (`--fields`,
    /// `--line-number`): prefixes in text, keys in JSON, leading columns in TSV.
    public var fields: [LogFieldName] = []
    /// The names of the columns of rows (`-e NAME=QUERY`): a JSON row is then
    /// an object keyed by them. Empty: unnamed (JSON arrays).
    public var columnNames: [String] = []

    /// Whether records tell context from selected stanzas (`-A`, `-B`, `-C`,
    /// `--pair`): in text, prefixes end with `-` instead of `:` for context, as grep's
    /// do; in JSON, every record is an object with the key `context`.
    public var marksContext = false

    /// Appends the record for one value; `context`: a stanza printed around a
    /// selected one (see ``marksContext``).
    func writeRecord(file: String, stanza: Int, source: StanzaSource? = nil, value: QueryValue, context: Bool = false,
                     into out: inout [UInt8]) {
        if format != .json && hasPrefixes {
            var text: [UInt8] = []
            value.writeText(into: &text, options: render)
            return writePrefixedLines(text, file: file, stanza: stanza, source: source, context: context, into: &out)
        }
        writeEnvelope(file: file, stanza: stanza, source: source, context: context, into: &out) { out in
            if format == .json { value.writeJSON(into: &out, options: render) } else { value.writeText(into: &out, options: render) }
        }
    }

    /// Appends a stanza printed whole (`-s`); `context`: a stanza printed around
    /// a selected one (see ``marksContext``).
    func writeStanza(file: String, stanza: Int, source: StanzaSource?, element: Element, context: Bool = false,
                     into out: inout [UInt8]) {
        guard format != .json, hasPrefixes else {
            return writeRecord(file: file, stanza: stanza, source: source, value: .element(element), context: context, into: &out)
        }
        var xml: [UInt8] = []
        QueryValue.element(element).writeText(into: &xml, options: render)
        writePrefixedLines(xml, file: file, stanza: stanza, source: source, context: context, into: &out)
    }

    /// Whether text records start with prefixes or field columns.
    private var hasPrefixes: Bool { withFilename || withStanzaNumber || !fields.isEmpty }

    /// Appends a text record behind its prefixes and field columns. With records
    /// ending in a newline, they go on every line of a value written on several
    /// (as grep prints each line with its prefixes), so that a line taken out
    /// still says where it is from and splits the same way as the first.
    private func writePrefixedLines(_ text: [UInt8], file: String, stanza: Int, source: StanzaSource?, context: Bool,
                                    into out: inout [UInt8]) {
        var prefix: [UInt8] = []
        let mark: UInt8 = context ? UInt8(ascii: "-") : UInt8(ascii: ":")
        writePrefixes(file: file, stanza: stanza, mark: mark, into: &prefix)
        writeFieldPrefixes(source, mark: mark, into: &prefix)
        var lineStart = 0
        if separator == [UInt8(ascii: "\n")] {
            for (index, byte) in text.enumerated() where byte == UInt8(ascii: "\n") {
                out.append(contentsOf: prefix)
                out.append(contentsOf: text[lineStart...index])
                lineStart = index + 1
            }
        }
        out.append(contentsOf: prefix)
        out.append(contentsOf: text[lineStart...])
        out.append(contentsOf: separator)
    }

    /// The header row of `--header`: the columns' names (a query's text where
    /// it has none), after the fields' names, behind the prefixes' names
    /// (`file:`, `stanza:`), as the rows under it are laid out.
    public func headerRecord(queries: [String]) -> [UInt8] {
        var out: [UInt8] = []
        if withFilename { writePrefix("file", color: colors?.file, into: &out) }
        if withStanzaNumber { writePrefix("stanza", color: colors?.number, into: &out) }
        var names = fields.map(\.key)
        names += columnNames.isEmpty ? queries : columnNames
        for (index, name) in names.enumerated() {
            if index > 0 { out.append(UInt8(ascii: "\t")) }
            writeField(.string(name), into: &out)
        }
        out.append(contentsOf: separator)
        return out
    }

    /// Appends one row: the first result of each query (several queries, or TSV);
    /// a JSON array (an object keyed by the columns' names) with `null`, or
    /// tab-separated fields left empty, for the absent ones.
    func writeRow(file: String, stanza: Int, source: StanzaSource? = nil, values: [QueryValue?], into out: inout [UInt8]) {
        if format != .json {
            // What writeEnvelope writes around a text row, without its closure
            // (which copied the formatter for every row).
            writePrefixes(file: file, stanza: stanza, mark: UInt8(ascii: ":"), into: &out)
            // The fields lead the row, as columns.
            for field in fields {
                if let value = field.value(in: source) { writeField(value, into: &out) }
                out.append(UInt8(ascii: "\t"))
            }
            for index in values.indices {
                if index > 0 { out.append(UInt8(ascii: "\t")) }
                if let value = values[index] { writeField(value, into: &out) }
            }
            out.append(contentsOf: separator)
            return
        }
        // JSON, named columns: one flat object of the prefixes' and fields' keys
        // and the columns (whose names cannot be those keys), so that
        // `jq 'select(.type == "message")'` reads a column as it reads a field.
        if !columnNames.isEmpty {
            var object = JSONObjectWriter(into: &out)
            writePrefixMembers(file: file, stanza: stanza, source: source, into: &object, &out)
            for (name, value) in zip(columnNames, values) {
                object.key(name, into: &out)
                if let value { value.writeJSON(into: &out, options: render) } else { out.append(contentsOf: "null".utf8) }
            }
            object.close(into: &out)
            out.append(contentsOf: separator)
            return
        }
        // JSON, unnamed columns: an array (the `value` of an object with prefixes).
        writeEnvelope(file: file, stanza: stanza, source: source, columns: false, into: &out) { out in
            func writeJSON(_ value: QueryValue?) {
                if let value { value.writeJSON(into: &out, options: render) } else { out.append(contentsOf: "null".utf8) }
            }
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeJSON(value)
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    /// The prefixes (or, in JSON, the `{"file","stanza","value"}` object) around a
    /// record's value, and the record separator after it.
    private func writeEnvelope(file: String, stanza: Int, source: StanzaSource?, columns: Bool = true, context: Bool = false,
                               into out: inout [UInt8], value: (inout [UInt8]) -> Void) {
        if format == .json && (withFilename || withStanzaNumber || !fields.isEmpty || marksContext) {
            var object = JSONObjectWriter(into: &out)
            writePrefixMembers(file: file, stanza: stanza, source: source, into: &object, &out)
            if marksContext { object.member("context", literal: context ? "true" : "false", into: &out) }
            object.key("value", into: &out)
            value(&out)
            object.close(into: &out)
        } else {
            if format != .json {
                let mark: UInt8 = context ? UInt8(ascii: "-") : UInt8(ascii: ":")
                writePrefixes(file: file, stanza: stanza, mark: mark, into: &out)
                if columns { writeFieldPrefixes(source, mark: mark, into: &out) }
            }
            value(&out)
        }
        out.append(contentsOf: separator)
    }

    /// The keys `file`, `stanza` and the fields' of a JSON record, as asked for.
    private func writePrefixMembers(file: String, stanza: Int, source: StanzaSource?, into object: inout JSONObjectWriter,
                                    _ out: inout [UInt8]) {
        if withFilename { object.member("file", string: file.shownFileName, into: &out) }
        if withStanzaNumber { object.member("stanza", literal: String(stanza), into: &out) }
        for field in fields {
            object.key(field.key, into: &out)
            if let value = field.value(in: source) { value.writeJSON(into: &out, options: render) } else { out.append(contentsOf: "null".utf8) }
        }
    }

    /// A count (`-c`), per file with `-H`.
    func countRecord(file: String?, count: Int) -> [UInt8] {
        var out: [UInt8] = []
        if format == .json {
            if let file {
                var object = JSONObjectWriter(into: &out)
                object.member("file", string: file.shownFileName, into: &out)
                object.member("value", literal: String(count), into: &out)
                object.close(into: &out)
            } else {
                out.append(contentsOf: String(count).utf8)
            }
        } else {
            if let file { writePrefix(file, color: colors?.file, into: &out) }
            out.append(contentsOf: String(count).utf8)
        }
        out.append(contentsOf: separator)
        return out
    }

    /// One distinct row of `-c` counting by value, with its count (``ValueCountSink``):
    /// `row` as ``writeRow(file:stanza:source:values:into:)`` writes it without
    /// prefixes or separator.
    func valueCountRecord(file: String?, count: Int, row: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        if format == .json {
            out.append(contentsOf: "{".utf8)
            if let file {
                out.append(contentsOf: "\"file\":".utf8)
                QueryValue.string(file.shownFileName).writeJSON(into: &out, options: render)
                out.append(UInt8(ascii: ","))
            }
            out.append(contentsOf: "\"count\":\(count)".utf8)
            if row.first == UInt8(ascii: "{") {
                // The row's own object, its members after the count.
                if row.count > 2 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: row.dropFirst())
            } else {
                out.append(contentsOf: ",\"value\":".utf8)
                out.append(contentsOf: row)
                out.append(UInt8(ascii: "}"))
            }
        } else {
            if let file { writePrefix(file, color: colors?.file, into: &out) }
            out.append(contentsOf: String(count).utf8)
            out.append(UInt8(ascii: "\t"))
            out.append(contentsOf: row)
        }
        out.append(contentsOf: separator)
        return out
    }

    /// The line between two groups of stanzas that are not next to each other
    /// (context, `--pair`): `--`, as grep writes it; nothing in JSON, whose records
    /// say `context` and can be told apart by their stanza numbers.
    func groupSeparator() -> [UInt8] {
        guard format != .json else { return [] }
        var out: [UInt8] = []
        if let colors { out.append(contentsOf: (colors.separator + "--" + colors.reset).utf8) } else { out.append(contentsOf: "--".utf8) }
        out.append(contentsOf: separator)
        return out
    }

    /// The name of an input (`-l`, `-L`): a JSON string in JSON; else the name
    /// with its control characters escaped as in prefixes, except with `-0`,
    /// which ends it with NUL for `xargs -0` and so writes it as it is.
    func fileNameRecord(_ file: String) -> [UInt8] {
        var out: [UInt8] = []
        if format == .json {
            QueryValue.string(file.shownFileName).writeJSON(into: &out, options: render)
        } else if separator == [0] {
            // Its bytes, as they name the file (FileNames), for xargs -0.
            let bytes = file.fileSystemPath.dropLast().map { UInt8(bitPattern: $0) }
            if let colors { out.append(contentsOf: Array(colors.file.utf8) + bytes + Array(colors.reset.utf8)) } else { out.append(contentsOf: bytes) }
        } else {
            let text = file.shownFileName.escapingControlCharacters
            if let colors { out.append(contentsOf: (colors.file + text + colors.reset).utf8) } else { out.append(contentsOf: text.utf8) }
        }
        out.append(contentsOf: separator)
        return out
    }

    private func writePrefixes(file: String, stanza: Int, mark: UInt8, into out: inout [UInt8]) {
        if withFilename { writePrefix(file, color: colors?.file, mark: mark, into: &out) }
        if withStanzaNumber { writePrefix(String(stanza), color: colors?.number, mark: mark, into: &out) }
    }

    /// The fields in text records: the line as grep's prefix (`LINE:`, or `LINE-`
    /// for context), after the file name and stanza number; every other field
    /// (whose value may hold `:`, as a time does) as a column ending in a tab,
    /// escaped as a TSV field, so that `cut -f` and `awk -F'\t'` split any line
    /// of any record. An unknown field is empty.
    private func writeFieldPrefixes(_ source: StanzaSource?, mark: UInt8 = UInt8(ascii: ":"), into out: inout [UInt8]) {
        if fields.contains(.line) {
            var text: [UInt8] = []
            if let value = LogFieldName.line.value(in: source) { value.writeText(into: &text, options: render) }
            writePrefix(String(decoding: text, as: UTF8.self), color: colors?.number, mark: mark, into: &out)
        }
        for field in fields where field != .line {
            if let value = field.value(in: source) { writeField(value, into: &out) }
            out.append(UInt8(ascii: "\t"))
        }
    }

    /// A prefix (a file name, a stanza number, a log field) with its control
    /// characters escaped: a name holding a newline must not start a forged record,
    /// nor an escape drive the terminal. Values are data and stay as they are.
    private func writePrefix(_ unescaped: String, color: String?, mark: UInt8 = UInt8(ascii: ":"), into out: inout [UInt8]) {
        let text = unescaped.shownFileName.escapingControlCharacters
        if let colors, let color {
            out.append(contentsOf: (color + text + colors.reset + colors.separator).utf8)
            out.append(mark)
            out.append(contentsOf: colors.reset.utf8)
        } else {
            out.append(contentsOf: text.utf8)
            out.append(mark)
        }
    }

    /// A TSV field: the text rendering with backslash, tab, newline and carriage
    /// return written as `\\`, `\t`, `\n` and `\r` (the escapes of PostgreSQL's and
    /// MySQL's text exports), so that a row can be decoded back; bytes from
    /// `|base64` as base64 text, since raw bytes would break the row.
    private func writeField(_ value: QueryValue, into out: inout [UInt8]) {
        var field: [UInt8] = []
        switch value {
        case .string(var string):
            // The common field: escaped straight from the string's bytes, with no copy.
            string.withUTF8 { Self.appendEscaped($0, into: &out) }
            return
        case .data:
            value.writeJSON(into: &field, options: render)
            field = Array(field.dropFirst().dropLast())
        default:
            value.writeText(into: &field, options: render)
        }
        field.withUnsafeBufferPointer { Self.appendEscaped($0, into: &out) }
    }

    /// Appends `bytes` with the escapes of ``writeField(_:into:)``, runs
    /// without any in one piece.
    private static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var start = 0
        for index in bytes.indices {
            let escape: UInt8
            switch bytes[index] {
            case 0x5C: escape = UInt8(ascii: "\\")
            case 0x09: escape = UInt8(ascii: "t")
            case 0x0A: escape = UInt8(ascii: "n")
            case 0x0D: escape = UInt8(ascii: "r")
            default: continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
            out.append(UInt8(ascii: "\\"))
            out.append(escape)
            start = index + 1
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
    }
}
