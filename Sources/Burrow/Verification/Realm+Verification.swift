import Foundation

extension Realm {
    /// What ``Realm/verifyFile(at:encryptionKey:)`` found in a file.
    ///
    /// ```swift
    /// let verification = try Realm.verifyFile(at: url)
    /// if !verification.isIntact { verification.problems.forEach { print($0) } }
    /// ```
    public struct FileVerification: Sendable {
        /// The most problems listed; the rest are counted in ``problemCount``.
        public static let listedProblemLimit = 100

        /// The objects of each stored class, by class name.
        public var objectCounts: [String: Int] = [:]
        /// Records read and checked: rows, index, collection, backlink and change-log entries.
        public var recordsRead = 0
        /// What does not fit, one sentence each, naming the class, object and property (at
        /// most ``listedProblemLimit``).
        public private(set) var problems: [String] = []
        /// How many problems were found, listed or not.
        public private(set) var problemCount = 0

        /// Whether nothing was found wrong.
        public var isIntact: Bool { problemCount == 0 }

        mutating func note(_ problem: String) {
            problemCount += 1
            if problems.count < Self.listedProblemLimit { problems.append(problem) }
        }
    }

    /// Checks every record of the realm file at `fileURL`, read-only, in one snapshot: that
    /// every row and collection entry decodes, that indexes, primary keys and backlinks agree
    /// with the rows, that links lead to objects that exist, that each embedded object has one
    /// owner, and that the change log decodes.
    ///
    /// ```swift
    /// let verification = try Realm.verifyFile(at: URL(fileURLWithPath: "inventory.realm"))
    /// print(verification.isIntact ? "intact" : verification.problems.joined(separator: "\n"))
    /// ```
    ///
    /// The file is opened as a tool opens it (no classes of the program's, nothing written), so
    /// it may be checked while other processes use it. Damage inside LMDB's own B-tree pages is
    /// not reported but met: LMDB 0.9.24 trusts those pages and may stop the process that reads
    /// one (an assertion or a fault), so check a file you do not trust in a child process, as
    /// `burrow verify` does.
    ///
    /// In an encrypted file (give its `encryptionKey`), a value that fails its authentication
    /// check (tampered with, moved, or damaged) is reported as a problem.
    ///
    /// - Throws: ``Realm/Error`` when the file cannot be opened: `fileNotFound`,
    ///   `invalidDatabase` (not a Burrow file, damaged meta pages, a damaged schema, a wrong,
    ///   missing or unexpected key), `fileAccess`.
    public static func verifyFile(at fileURL: URL, encryptionKey: Data? = nil) throws -> FileVerification {
        try verifyFile(at: fileURL, encryptionKey: encryptionKey, progress: nil)
    }

    /// ``verifyFile(at:encryptionKey:)``, telling `progress` the count of records read so far
    /// as the check begins (0) and every 1,024 records: for a progress line, and for a watchdog that stops a check
    /// caught in damaged pages that loop (`burrow verify`).
    package static func verifyFile(at fileURL: URL, encryptionKey: Data?, progress: ((Int) -> Void)?) throws -> FileVerification {
        let configuration = Configuration(fileURL: fileURL, encryptionKey: encryptionKey, readOnly: true, objectTypes: [])
        let realm = try Realm(configuration: configuration)
        return FileVerifier.verify(realm.core, progress: progress)
    }
}
