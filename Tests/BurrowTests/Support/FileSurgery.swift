import Foundation
import LMDB

/// Writes a valid LMDB file that holds someone else's data.
func makeForeignLMDBFile(at path: String) throws {
    let environment = try Environment.open(path: path)
    let txn = try environment.beginTransaction()
    let db = try txn.openDatabase(named: "users", create: true)
    try txn.put(Array("alice".utf8), Array("admin".utf8), in: db)
    try txn.commit()
    unlink(path + "-lock")
}
