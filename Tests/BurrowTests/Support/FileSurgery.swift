@testable import Burrow
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

/// Edits the header record of a closed Burrow file.
func rewriteHeader(at path: String, _ edit: (inout [UInt8]) -> Void) throws {
    let environment = try Environment.open(path: path)
    let txn = try environment.beginTransaction()
    let metadata = try txn.openDatabase(named: FileHeader.metadataDatabaseName)
    var header = try txn.value(for: FileHeader.headerKey, in: metadata) ?? []
    edit(&header)
    try txn.put(FileHeader.headerKey, header, in: metadata)
    try txn.commit()
}
