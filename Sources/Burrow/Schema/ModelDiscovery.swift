/// Every model class the program declares, found once per process from the Swift runtime's own
/// records of the types each loaded image declares, the way RealmSwift reads the Objective-C
/// class list on Apple platforms.
///
/// How: the runtime lists the metadata sections of every image it has loaded
/// (`swift_enumerateAllMetadataSections`, which Swift Testing uses on Linux too); each image's
/// `swift5_type_metadata` section holds one relative pointer per nominal type it declares, to
/// the type's context descriptor. A class descriptor that is not generic and names a
/// superclass has its metadata accessor called, and the class is kept when it descends from
/// ``Object`` or ``EmbeddedObject``.
///
/// What is left out, and still works when first used, as every class did before:
/// - generic classes (which are refused as models anyway);
/// - classes declared inside a function or closure: they have no place in the program that
///   outlives the function, and such classes are often a test's deliberate misuse;
/// - classes in libraries loaded (`dlopen`) after the first discovery, which runs once;
/// - classes whose `_realmIgnoreClass()` is true, as RealmSwift leaves them out;
/// - classes whose stored properties are all plain (RealmSwift's legacy declarations, which
///   Burrow cannot store): they trap where they are used, naming their properties.
enum ModelDiscovery {
    /// The model classes, in the order the images declare them.
    static let modelTypes: [ObjectBase.Type] = discover()

    private static func discover() -> [ObjectBase.Type] {
        // The descriptors are collected first and their metadata made after the enumeration, so
        // that making metadata (which may look up other types) never runs inside it.
        var candidates: [TypeDescriptor] = []
        withUnsafeMutablePointer(to: &candidates) { pointer in
            enumerateMetadataSections({ sections, context in
                let candidates = context.assumingMemoryBound(to: [TypeDescriptor].self)
                candidates.pointee.append(contentsOf: ModelDiscovery.candidates(inSections: sections))
                return true
            }, pointer)
        }
        return candidates.compactMap { descriptor in
            guard let type = descriptor.metadata() as? ObjectBase.Type, type != Object.self,
                  type != EmbeddedObject.self, type != DynamicObject.self, !type._realmIgnoreClass() else { return nil }
            // A class Burrow cannot store (RealmSwift's legacy declarations) traps where it is
            // used, not in every realm's schema.
            return ClassInfo.hasOnlyLegacyDeclarations(type) ? nil : type
        }
    }

    /// The descriptors of the classes in one image's sections that can be models.
    private static func candidates(inSections sections: UnsafeRawPointer) -> [TypeDescriptor] {
        // struct MetadataSections { version, reserved, next, prev, then (start, length) ranges:
        // swift5_protocols, swift5_protocol_conformances, swift5_type_metadata, … }
        guard sections.load(as: UInt.self) >= 1 else { return [] }
        let start = sections.load(fromByteOffset: 8 * 4 + 16 * 2, as: UInt.self)
        let length = sections.load(fromByteOffset: 8 * 4 + 16 * 2 + 8, as: Int.self)
        guard let records = UnsafeRawPointer(bitPattern: start), length > 0 else { return [] }
        return stride(from: 0, to: length - 3, by: 4).compactMap { offset in
            guard let descriptor = TypeDescriptor(record: records + offset), descriptor.isNonGenericSubclass,
                  !descriptor.isLocal else { return nil }
            return descriptor
        }
    }
}

/// A nominal type's context descriptor, as the Swift ABI lays it out: 32-bit flags, then
/// 32-bit pointers relative to their own address (parent, name, metadata accessor, fields,
/// and for a class its superclass's mangled name).
private struct TypeDescriptor {
    let address: UnsafeRawPointer

    /// The descriptor a type metadata record points at, directly or through a pointer.
    init?(record: UnsafeRawPointer) {
        let raw = record.load(as: Int32.self)
        guard let target = Self.resolve(record, raw & ~3) else { return nil }
        switch raw & 3 {
        case 0: address = target
        case 1:
            guard let indirect = target.load(as: UnsafeRawPointer?.self) else { return nil }
            address = indirect
        default: return nil
        }
    }

    private init(address: UnsafeRawPointer) { self.address = address }

    private var flags: UInt32 { address.load(as: UInt32.self) }
    private var kind: UInt32 { flags & 0x1F }
    private static let classKind: UInt32 = 16, anonymousKind: UInt32 = 2, moduleKind: UInt32 = 0

    /// A class that is not generic and has a superclass: only those can be models.
    var isNonGenericSubclass: Bool {
        kind == Self.classKind && flags & 0x80 == 0 && (address + 20).load(as: Int32.self) != 0
    }

    /// Whether the type is declared inside a function or closure: an anonymous context in its
    /// parents that is not the one a file-private type sits in, directly inside its module.
    var isLocal: Bool {
        var current = self
        while let parent = current.parent {
            if parent.kind == Self.anonymousKind, parent.parent?.kind != Self.moduleKind { return true }
            current = parent
        }
        return false
    }

    private var parent: TypeDescriptor? {
        let raw = (address + 4).load(as: Int32.self)
        guard let target = Self.resolve(address + 4, raw & ~1) else { return nil }
        if raw & 1 == 0 { return TypeDescriptor(address: target) }
        return target.load(as: UnsafeRawPointer?.self).map { TypeDescriptor(address: $0) }
    }

    /// The type, from its metadata accessor (a Swift function taking the metadata request).
    func metadata() -> Any.Type? {
        let raw = (address + 12).load(as: Int32.self)
        guard let function = Self.resolve(address + 12, raw) else { return nil }
        typealias Accessor = @convention(thin) (Int) -> (metadata: UnsafeRawPointer?, state: Int)
        let complete = 0
        guard let metadata = unsafeBitCast(function, to: Accessor.self)(complete).metadata else { return nil }
        return unsafeBitCast(metadata, to: Any.Type.self)
    }

    private static func resolve(_ base: UnsafeRawPointer, _ offset: Int32) -> UnsafeRawPointer? {
        offset == 0 ? nil : base + Int(offset)
    }
}

/// Calls `body` with each loaded image's metadata sections until it returns `false`.
@_silgen_name("swift_enumerateAllMetadataSections")
private func enumerateMetadataSections(_ body: @convention(c) (UnsafeRawPointer, UnsafeMutableRawPointer) -> Bool,
                                       _ context: UnsafeMutableRawPointer)
