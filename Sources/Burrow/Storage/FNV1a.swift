/// The 64-bit FNV-1a hash: stable across runs and platforms, for names and index keys.
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }
}
