@_spi(Reflection) import Swift
import Foundation

/// Where the leaves of one `#Predicate` expression type lie in its memory: each constant, key
/// path and operator at a fixed offset from the start of the expression value.
///
/// Binding a template (``PredicateTemplates``) reads the constants straight from those offsets
/// and compares the key paths and operators there with the ones the template was learnt from,
/// instead of walking the expression through its generic members, which asks the runtime for
/// metadata and boxes each constant at every use.
///
/// It rests on what ``FieldOffsetCache`` rests on (`_forEachField(of:options:)` reports a
/// type's stored properties with their offsets and types), and a layout is kept only when
/// reading the expression it was learnt from gives back that expression's own leaves.
struct PredicateLeafLayout {
    /// A constant at `offset`, read by `read` into its literal (`nil` when the value has no
    /// literal a template may hold).
    struct Constant {
        let offset: Int
        let read: (UnsafeRawPointer) -> _PersistedValue?
        /// The template's placeholder this constant fills.
        var placeholder: Int
    }

    /// Bytes that must hold what they held in the expression the layout was learnt from: a key
    /// path's reference (key paths written in source are made once), an operator's code.
    struct FixedBytes {
        let offset: Int
        let size: Int
        let isKeyPath: Bool
        var expected: [UInt8]
    }

    private(set) var constants: [Constant] = []
    private(set) var fixed: [FixedBytes] = []

    /// The layout of `expression`'s type, checked against the leaves its translation read
    /// (`literals` in placeholder order, `keyPaths` and `operators`); `nil` when a stored
    /// property is of a kind the layout does not know, or reading disagrees with the leaves.
    init?<E>(of expression: E, literals: [_PersistedValue], keyPaths: [ObjectIdentifier], operators: [Int]) {
        guard Self.walk(E.self, at: 0, into: &self) else { return nil }
        let keyPathCount = fixed.count { $0.isKeyPath }
        guard constants.count == literals.count, keyPathCount == keyPaths.count, fixed.count - keyPathCount == operators.count else {
            return nil
        }
        let learnt: [_PersistedValue?] = withUnsafePointer(to: expression) { pointer in
            let base = UnsafeRawPointer(pointer)
            for index in fixed.indices {
                fixed[index].expected = Array(UnsafeRawBufferPointer(start: base + fixed[index].offset, count: fixed[index].size))
            }
            return constants.map { $0.read(base + $0.offset) }
        }
        // Each constant is matched to its placeholder by value: the template's literals are
        // distinct, so each read must be found exactly once.
        var used = Set<Int>()
        for (index, value) in learnt.enumerated() {
            guard let value, let placeholder = literals.firstIndex(of: value), used.insert(placeholder).inserted else { return nil }
            constants[index].placeholder = placeholder
        }
        guard used.count == literals.count else { return nil }
        // Every key path read is one the translation read.
        let identities = Set(keyPaths.map { UInt(bitPattern: $0) })
        for bytes in fixed where bytes.isKeyPath {
            guard identities.contains(bytes.expected.withUnsafeBytes { $0.loadUnaligned(as: UInt.self) }) else { return nil }
        }
    }

    /// The literals of `expression` in placeholder order, or `nil` when a key path or an
    /// operator differs from the template's or a constant has no plain literal.
    func literals<E>(of expression: E) -> [_PersistedValue]? {
        withUnsafePointer(to: expression) { pointer -> [_PersistedValue]? in
            let base = UnsafeRawPointer(pointer)
            for bytes in fixed where !Self.holds(base + bytes.offset, bytes.expected) { return nil }
            // Filled in place (an array of `.null`s made first cost more than the rest of the
            // binding): the placeholders are a permutation of the constants' indices, checked
            // when the layout was learnt, so once every constant is read all are initialized.
            var complete = true
            let literals = [_PersistedValue](unsafeUninitializedCapacity: constants.count) { buffer, count in
                for constant in constants {
                    guard let literal = constant.read(base + constant.offset) else { break }
                    (buffer.baseAddress! + constant.placeholder).initialize(to: literal)
                    count += 1
                }
                if count < constants.count {
                    // Only the places of the constants read so far are initialized.
                    complete = false
                    for constant in constants.prefix(count) { (buffer.baseAddress! + constant.placeholder).deinitialize(count: 1) }
                    count = 0
                }
            }
            return complete ? literals : nil
        }
    }

    @inline(__always)
    private static func holds(_ address: UnsafeRawPointer, _ expected: [UInt8]) -> Bool {
        expected.withUnsafeBytes { memcmp(address, $0.baseAddress!, $0.count) == 0 }
    }

    // MARK: Learning

    /// Adds the leaves of an expression of type `type` stored at `offset`; `false` for a stored
    /// property of any other kind.
    private static func walk(_ type: Any.Type, at offset: Int, into layout: inout PredicateLeafLayout) -> Bool {
        var known = true
        let isConstant = type is any ConstantLeaf.Type, isKeyPath = type is any KeyPathLeaf.Type, isOperator = type is any OperatorLeaf.Type
        let walked = _forEachField(of: type, options: []) { name, fieldOffset, fieldType, fieldKind in
            let label = String(cString: name), at = offset + fieldOffset
            if isConstant, label == "value" {
                layout.constants.append(Constant(offset: at, read: reader(of: fieldType), placeholder: -1))
            } else if isKeyPath, label == "keyPath", size(of: fieldType) == MemoryLayout<UInt>.size {
                layout.fixed.append(FixedBytes(offset: at, size: MemoryLayout<UInt>.size, isKeyPath: true, expected: []))
            } else if isOperator, label == "op" {
                layout.fixed.append(FixedBytes(offset: at, size: size(of: fieldType), isKeyPath: false, expected: []))
            } else if fieldType == PredicateExpressions.VariableID.self {
                // Each predicate's own variable, which translation binds by its key.
            } else if fieldType is any PredicateExpression.Type, fieldKind == .struct {
                // Stored inline: its own fields lie at offsets from where it lies (a class's
                // would lie behind a reference).
                known = walk(fieldType, at: at, into: &layout)
            } else {
                known = false
            }
            return known
        }
        return walked && known
    }

    private static func size<T>(of _: T.Type) -> Int { MemoryLayout<T>.size }

    /// What reads a constant of type `Value` into the literal a template holds, as
    /// ``PredicateLeaves`` makes it.
    private static func reader<Value>(of _: Value.Type) -> (UnsafeRawPointer) -> _PersistedValue? {
        // The common constants without boxing them into `Any`.
        if Value.self == String.self { return { .string($0.load(as: String.self)) } }
        if Value.self == Int.self { return { .int(Int64($0.load(as: Int.self))) } }
        return { address in
            let value = address.load(as: Value.self)
            guard let literal = try? PredicateTranslation.storedValue(value, in: value),
                  literal == .null || PredicateTemplates.isPlain(literal) else { return nil }
            return literal
        }
    }
}
