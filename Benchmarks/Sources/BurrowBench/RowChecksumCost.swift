import Foundation

/// What a checksum on every row would cost: CRC32C (slicing-by-8, in software, as a portable
/// build has it) of `count` rows of the workload's stored size, one call per row as a read
/// would make it. The measurement behind Burrow's choice not to checksum rows.
enum RowChecksumCost {
    /// Bytes of one stored `Item` row: header, null bitmap, six end offsets and the values.
    static let rowSize = 80

    struct Measurement {
        let seconds: Double
        let rows: Int
    }

    static func measure(count: Int) -> Measurement {
        var rows = [UInt8](repeating: 0, count: count * rowSize)
        for index in rows.indices { rows[index] = UInt8(truncatingIfNeeded: index &* 31) }
        let (seconds, sum) = Stopwatch.measure {
            rows.withUnsafeBytes { bytes in
                var sum: UInt32 = 0
                for row in 0..<count {
                    sum &+= CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[row * rowSize..<(row + 1) * rowSize]))
                }
                return sum
            }
        }
        precondition(sum != 1, "the checksums were not computed")  // keeps the loop from being dropped
        return Measurement(seconds: seconds, rows: count)
    }

    static func summary(_ measurement: Measurement, scan: Double?, randomGet: Double?) -> String {
        var text = String(format: "Row checksums (CRC32C of each %d-byte row, software): %.4f s for %d rows = %.0f ns a row",
                          rowSize, measurement.seconds, measurement.rows, measurement.seconds / Double(measurement.rows) * 1e9)
        if let scan { text += String(format: "; %.0f%% of Burrow's scan", measurement.seconds / scan * 100) }
        if let randomGet { text += String(format: ", %.1f%% of its random gets", measurement.seconds / randomGet * 100) }
        return text
    }
}

/// CRC-32C (Castagnoli), reflected, slicing by 8 bytes.
enum CRC32C {
    private static let tables: [[UInt32]] = {
        var tables = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 8)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            tables[0][byte] = crc
        }
        for byte in 0..<256 {
            for slice in 1..<8 {
                let previous = tables[slice - 1][byte]
                tables[slice][byte] = (previous >> 8) ^ tables[0][Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        tables.withUnsafeBufferPointer { tables in
            var crc: UInt32 = 0xFFFF_FFFF
            var index = 0
            let t0 = tables[0], t1 = tables[1], t2 = tables[2], t3 = tables[3]
            let t4 = tables[4], t5 = tables[5], t6 = tables[6], t7 = tables[7]
            while index + 8 <= bytes.count {
                let low = bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self) ^ crc
                let high = bytes.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self)
                crc = t7[Int(low & 0xFF)] ^ t6[Int((low >> 8) & 0xFF)] ^ t5[Int((low >> 16) & 0xFF)] ^ t4[Int(low >> 24)]
                    ^ t3[Int(high & 0xFF)] ^ t2[Int((high >> 8) & 0xFF)] ^ t1[Int((high >> 16) & 0xFF)] ^ t0[Int(high >> 24)]
                index += 8
            }
            while index < bytes.count {
                crc = (crc >> 8) ^ t0[Int((crc ^ UInt32(bytes[index])) & 0xFF)]
                index += 1
            }
            return ~crc
        }
    }
}
