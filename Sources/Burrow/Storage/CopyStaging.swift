import Foundation

/// Where a copy of a file is written while it is made, beside its destination and named for
/// this process, before it is put in place whole: so that no reader ever sees half a file.
enum CopyStaging {
    /// The staging file of an in-place compaction of `path`, renamed over it once complete.
    static func compactingPath(for path: String) -> String {
        path + ".compacting-\(getpid())"
    }

    /// The staging file of a copy to `path` under another key, linked to `path` once complete.
    static func rekeyingPath(for path: String) -> String {
        path + ".rekeying-\(getpid())"
    }
}
