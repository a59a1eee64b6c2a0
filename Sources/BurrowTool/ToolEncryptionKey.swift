import Foundation

/// The encryption key of the file a command reads, from `BURROW_ENCRYPTION_KEY` (128
/// hexadecimal digits, a 64-byte key) or from a file named by `--key-file` (the same digits,
/// or the 64 bytes themselves). Never an argument's value: any user of the machine can read a
/// process's arguments.
///
/// ```
/// BURROW_ENCRYPTION_KEY=$(cat app.key.hex) burrow verify app.realm
/// burrow query app.realm Order --key-file /run/secrets/app.key
/// ```
enum ToolEncryptionKey {
    static let variable = "BURROW_ENCRYPTION_KEY"

    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// The key, or `nil` when the variable is not set.
    ///
    /// - Throws: ``Malformed`` when it is not 128 hexadecimal digits.
    static func fromEnvironment() throws -> Data? {
        guard let text = ProcessInfo.processInfo.environment[variable]?.trimmingCharacters(in: .whitespacesAndNewlines) else { return nil }
        return try parse(text, source: variable)
    }

    /// The key in the file at `path`: 64 bytes, or 128 hexadecimal digits (surrounding white
    /// space ignored).
    ///
    /// - Throws: ``Malformed`` when it cannot be read or holds neither.
    static func fromFile(_ path: String) throws -> Data {
        // Read with read(2), which takes any file (a pipe, /dev/stdin) and says why it failed.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Malformed(description: "key file \(path): cannot be read (\(String(cString: strerror(errno))))") }
        defer { close(descriptor) }
        var contents = Data()
        var buffer = [UInt8](repeating: 0, count: 512)
        while contents.count <= 4096 {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw Malformed(description: "key file \(path): cannot be read (\(String(cString: strerror(errno))))") }
            if count == 0 { break }
            contents.append(contentsOf: buffer[0..<count])
        }
        if contents.count == 64 { return contents }
        guard let text = String(data: contents, encoding: .utf8) else {
            throw Malformed(description: "key file \(path) must hold 64 bytes or 128 hexadecimal digits")
        }
        return try parse(text.trimmingCharacters(in: .whitespacesAndNewlines), source: "key file \(path)")
    }

    static func parse(_ text: String, source: String = variable) throws -> Data {
        let digits = Array(text.utf8)
        guard digits.count == 128 else {
            throw Malformed(description: "\(source) must be 128 hexadecimal digits (a 64-byte key); it has \(digits.count) characters")
        }
        var key = Data(capacity: 64)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(of: digits[index]), let low = value(of: digits[index + 1]) else {
                throw Malformed(description: "\(source) must be 128 hexadecimal digits; it holds other characters")
            }
            key.append(high << 4 | low)
        }
        return key
    }

    private static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The key from `keyFile` when given, else from the environment; `nil` for none.
    ///
    /// - Throws: ``ToolFailure`` (status 2) when the key is malformed or unreadable.
    static func resolve(keyFile: String?) throws(ToolFailure) -> Data? {
        do {
            if let keyFile { return try fromFile(keyFile) }
            return try fromEnvironment()
        } catch {
            throw .input("\(error)")
        }
    }

    /// The key, or `nil` after printing why it is malformed (the command then exits with 2).
    static func read(for command: String) -> Data?? {
        do {
            return .some(try fromEnvironment())
        } catch {
            BurrowTool.printError("burrow \(command): \(error)")
            return nil
        }
    }
}
