extension PredicateCompiler {
    /// `value['key'] op x` on an `AnyRealmValue` property: the value under `key` of the
    /// dictionary it holds, compared as an `AnyRealmValue`; a missing key, or a value that is
    /// not a dictionary, reads as `nil`.
    func compileMixedMember(column: Int, key: String, _ comparison: Comparison, at position: Int) throws(Realm.Error) -> RowPredicate {
        var member = comparison
        member.lhs = .keyPath(storedClass.properties[column].name, position: position)
        let memberClass = StoredClass(id: 0, name: storedClass.name, properties: [storedClass.properties[column]], nextPropertyID: 1)
        let test = try PredicateCompiler(storedClass: memberClass, links: links).compile(.comparison(member))
        let whenMissing = Self.emptyRow.withUnsafeBytes { test(RowReader($0)) }
        var scratch: [UInt8] = []
        return { row in
            guard case .mixed(.dictionary(let keys, let values)) = row.value(column, kind: .mixed),
                  let index = keys.firstIndex(where: { $0.utf8.elementsEqual(key.utf8) }) else { return whenMissing }
            RowCodec.encode([values[index] == .null ? .null : .mixed(values[index])], into: &scratch)
            return scratch.withUnsafeBytes { test(RowReader($0)) }
        }
    }
}
