import Foundation

/// The encryption key of the file a command reads, from `BURROW_ENCRYPTION_KEY`: 128
/// hexadecimal digits (64 bytes). An environment variable rather than an argument, since any
/// user of the machine can read a process's arguments.
///
/// ```
/// BURROW_ENCRYPTION_KEY=$(cat app.key.hex) burrow verify app.realm
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
        return try parse(text)
    }

    static func parse(_ text: String) throws -> Data {
        let digits = Array(text.utf8)
        guard digits.count == 128 else {
            throw Malformed(description: "\(variable) must be 128 hexadecimal digits (a 64-byte key); it has \(digits.count) characters")
        }
        var key = Data(capacity: 64)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(of: digits[index]), let low = value(of: digits[index + 1]) else {
                throw Malformed(description: "\(variable) must be 128 hexadecimal digits; it holds other characters")
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
