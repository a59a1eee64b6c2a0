/// Seals the values of an environment's sealed databases before LMDB stores them, and opens
/// them as they are read: encryption without page hooks, which LMDB 0.9.24 lacks.
///
/// An environment opened with a sealer (``Environment/Options/sealer``) passes every non-empty
/// value of a database opened with `sealed: true` through it. Keys are stored as given. Each
/// value is bound to its database and its key (``Database/sealID`` and the key bytes), so that
/// a value moved to another key or database no longer opens. Empty values stay empty.
///
/// ```swift
/// var options = Environment.Options()
/// options.sealer = cipher
/// let env = try Environment.open(path: path, options: options)
/// let txn = try env.beginTransaction()
/// let rows = try txn.openDatabase(named: "rows", create: true, sealed: true)
/// ```
public protocol ValueSealer: AnyObject, Sendable {
    /// How many bytes a sealed value takes beyond its plaintext.
    var sealingOverhead: Int { get }

    /// Seals `plaintext` into `sealed`, which is ``sealingOverhead`` bytes longer.
    func seal(_ plaintext: UnsafeRawBufferPointer, into sealed: UnsafeMutableRawBufferPointer,
              database: UInt64, key: UnsafeRawBufferPointer)

    /// Opens `sealed` into `plaintext`, ``sealingOverhead`` bytes shorter; `false` when the
    /// value fails its authentication (tampered, damaged, moved or sealed with another key).
    func open(_ sealed: UnsafeRawBufferPointer, into plaintext: UnsafeMutableRawBufferPointer,
              database: UInt64, key: UnsafeRawBufferPointer) -> Bool

    /// Whether the sealer is in use: an environment's sealer may be chosen before its file says
    /// whether it wants one (``Environment/Options/sealer``), and stays idle when it does not.
    var isActive: Bool { get }
}

extension ValueSealer {
    public var isActive: Bool { true }
}

extension Database {
    /// This database's handle, read through the sealer as if opened with `sealed: true`: a
    /// database can keep some values in the clear and seal others.
    public func sealedView(named name: String) -> Database {
        Database(handle: handle, sealID: Database.sealID(ofName: name))
    }

    /// The id that binds a sealed database's values to it: a hash of its name, never 0.
    public static func sealID(ofName name: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash | 1
    }
}
