/// JSON text written straight into bytes, value by value: for the large texts an upload sends
/// (a batch's operations, the histories, rows and changes it writes), which building as
/// ``JSONValue`` trees first would allocate for every member of every object. It writes what
/// ``JSONValue/text`` writes for the same value.
///
/// ```swift
/// var writer = JSONTextWriter()
/// writer.beginObject()
/// writer.key("class"); writer.string("Task")
/// writer.key("pk"); writer.value(.number("7"))
/// writer.endObject()
/// writer.text  // {"class":"Task","pk":7}
/// ```
struct JSONTextWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the next value or member is the first of its array or object (or follows a
    /// member's name): no comma before it.
    private var startsList = true

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// The text written.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func beginArray() { open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }
    mutating func beginObject() { open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        startsList = true
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        startsList = false
    }

    /// The name of the next member of the object being written; its value follows.
    mutating func key(_ name: String) {
        separate()
        JSONValue.writeString(name, to: &bytes, ascii: false)
        bytes.append(UInt8(ascii: ":"))
        startsList = true
    }

    mutating func string(_ text: String) {
        separate()
        JSONValue.writeString(text, to: &bytes, ascii: false)
        startsList = false
    }

    /// `text`, or `null` when there is none.
    mutating func string(_ text: String?) {
        guard let text else { return value(.null) }
        string(text)
    }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
        startsList = false
    }

    mutating func value(_ value: JSONValue) {
        separate()
        value.write(to: &bytes, ascii: false)
        startsList = false
    }

    /// JSON text already written (``JSONValue/text`` or ``JSONValue/asciiText`` of a value), as is.
    mutating func raw(_ text: String) {
        separate()
        bytes.append(contentsOf: text.utf8)
        startsList = false
    }

    private mutating func separate() {
        if !startsList { bytes.append(UInt8(ascii: ",")) }
    }
}
