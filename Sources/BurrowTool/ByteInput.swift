import Foundation

/// Bytes read from a file or standard input in large chunks, one at a time, counting lines:
/// what the JSON and CSV readers parse, in constant memory however long the input.
final class ByteInput {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var position = 0
    private var ended = false
    /// The line of the next byte, from 1.
    private(set) var line = 1

    /// Reads `path`, or standard input for `-`.
    ///
    /// - Throws: ``ToolFailure`` (status 2) when the file cannot be opened.
    init(path: String) throws(ToolFailure) {
        if path == "-" {
            handle = FileHandle.standardInput
        } else {
            guard let opened = FileHandle(forReadingAtPath: path) else {
                throw .input("\(path): \(String(cString: strerror(errno)))")
            }
            handle = opened
        }
    }

    /// Reads the bytes of `text` (for tests and small inputs).
    init(text: String) {
        handle = FileHandle.nullDevice
        buffer = Array(text.utf8)
        ended = true
    }

    /// The next byte without taking it; `nil` at the end.
    @inline(__always)
    func peek() -> UInt8? {
        if position < buffer.count { return buffer[position] }
        return refill() ? buffer[position] : nil
    }

    /// Takes the next byte; `nil` at the end.
    @inline(__always)
    func next() -> UInt8? {
        guard let byte = peek() else { return nil }
        position += 1
        if byte == UInt8(ascii: "\n") { line += 1 }
        return byte
    }

    /// Skips spaces, tabs and line breaks.
    func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { _ = next() }
    }

    /// Whether every byte has been taken.
    var isAtEnd: Bool { peek() == nil }

    private func refill() -> Bool {
        guard !ended else { return false }
        let chunk = (try? handle.read(upToCount: 1 << 20)) ?? nil
        guard let chunk, !chunk.isEmpty else {
            ended = true
            return false
        }
        buffer = Array(chunk)
        position = 0
        return true
    }
}
