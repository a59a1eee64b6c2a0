/// Records of CSV text (RFC 4180: fields separated by commas, records by CRLF or LF, fields in
/// double quotes may hold commas, quotes doubled, and line breaks) over a ``ByteInput``.
struct CSVReader {
    struct Malformed: Error {
        let line: Int
        let message: String
    }

    let input: ByteInput
    /// The bytes of the field being read, kept from field to field.
    private var bytes: [UInt8] = []

    init(input: ByteInput) {
        self.input = input
    }

    /// The next record's fields and the line it starts on; `nil` at the end of the input.
    mutating func record() throws(Malformed) -> (fields: [String], line: Int)? {
        guard !input.isAtEnd else { return nil }
        let line = input.line
        var fields: [String] = []
        while true {
            let (field, ending) = try self.field()
            fields.append(field)
            switch ending {
            case .comma: continue
            case .record, .end: return (fields, line)
            }
        }
    }

    private enum Ending { case comma, record, end }

    private mutating func field() throws(Malformed) -> (String, Ending) {
        bytes.removeAll(keepingCapacity: true)
        if input.peek() == UInt8(ascii: "\"") {
            let start = input.line
            _ = input.next()
            while true {
                guard let byte = input.next() else { throw Malformed(line: start, message: "a quoted field is not closed") }
                if byte == UInt8(ascii: "\"") {
                    if input.peek() == UInt8(ascii: "\"") {
                        _ = input.next()
                        bytes.append(byte)
                        continue
                    }
                    break
                }
                bytes.append(byte)
            }
            let ending = try self.ending()
            return (try text(bytes), ending)
        }
        while let byte = input.peek(), byte != UInt8(ascii: ","), byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r") {
            if byte == UInt8(ascii: "\"") { throw Malformed(line: input.line, message: "a quote inside a field that does not start with one") }
            bytes.append(byte)
            _ = input.next()
        }
        return (try text(bytes), try ending())
    }

    /// What follows a field: a comma, a line break (CRLF or LF), or the end.
    private mutating func ending() throws(Malformed) -> Ending {
        guard let byte = input.next() else { return .end }
        switch byte {
        case UInt8(ascii: ","): return .comma
        case UInt8(ascii: "\n"): return .record
        case UInt8(ascii: "\r"):
            guard input.next() == UInt8(ascii: "\n") else { throw Malformed(line: input.line, message: "a carriage return without a line feed") }
            return .record
        default: throw Malformed(line: input.line, message: "'\(JSONReader.printable(byte))' after a closing quote")
        }
    }

    private func text(_ bytes: [UInt8]) throws(Malformed) -> String {
        // ASCII is valid UTF-8 as it is: the common case skips the validating decoder.
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw Malformed(line: input.line, message: "a field is not valid UTF-8") }
        return text
    }
}
