import Foundation

/// Dates as PostgreSQL writes a `timestamptz` in JSON with the UTC time zone:
/// `2026-12-03T12:00:00.123456+00:00`, to the microsecond, which is PostgreSQL's precision.
enum WireDate {
    /// The text of `date`, rounded to the microsecond.
    static func text(_ date: Date) -> String {
        let micros = (date.timeIntervalSince1970 * 1_000_000).rounded()
        let total = Int64(max(min(micros, 9.2e18), -9.2e18))
        var seconds = total / 1_000_000
        var fraction = total % 1_000_000
        if fraction < 0 { fraction += 1_000_000; seconds -= 1 }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 { secondOfDay += 86_400; days -= 1 }
        let (year, month, day) = civil(fromDays: days)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = year >= 0 && year < 1000 ? String(repeating: "0", count: 4 - String(year).count) + String(year) : "\(year)"
        var text = "\(yearText)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60))"
        if fraction != 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: 6 - digits.count) + digits
            while text.hasSuffix("0") { text.removeLast() }
        }
        return text + "+00:00"
    }

    /// The date `text` names: `YYYY-MM-DDTHH:MM:SS[.ffffff](Z|±HH[:MM])`, or a space for `T`.
    static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        var position = 0
        func number(_ count: Int) -> Int64? {
            guard bytes.count - position >= count else { return nil }
            var value: Int64 = 0
            for byte in bytes[position..<position + count] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - 48)
            }
            position += count
            return value
        }
        func skip(_ characters: String) -> Bool {
            guard position < bytes.count, characters.utf8.contains(bytes[position]) else { return false }
            position += 1
            return true
        }
        guard let year = number(4), skip("-"), let month = number(2), skip("-"), let day = number(2), skip("T "),
              let hour = number(2), skip(":"), let minute = number(2), skip(":"), let second = number(2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var micros: Int64 = 0
        if skip(".") {
            var digits = 0
            while position < bytes.count, (48...57).contains(bytes[position]) {
                if digits < 6 { micros = micros * 10 + Int64(bytes[position] - 48) }
                digits += 1
                position += 1
            }
            guard digits > 0 else { return nil }
            if digits < 6 { for _ in digits..<6 { micros *= 10 } }
        }
        var offset: Int64 = 0
        if skip("Z") {
            offset = 0
        } else if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
            let sign: Int64 = bytes[position] == UInt8(ascii: "-") ? -1 : 1
            position += 1
            guard let hours = number(2) else { return nil }
            var minutes: Int64 = 0
            if skip(":") { guard let value = number(2) else { return nil }; minutes = value }
            offset = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard position == bytes.count else { return nil }
        let seconds = days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + Double(micros) / 1_000_000)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date `days` after 1970-01-01.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
