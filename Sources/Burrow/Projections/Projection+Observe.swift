import Dispatch

extension ProjectionObservable where Root: Object {
    /// Calls `block` after each version that changed a projected property of the object, or
    /// deleted it, with the projection's property names and their old and new values.
    ///
    /// ```swift
    /// let token = view.observe { (change: ObjectChange<PersonView>) in
    ///     if case .change(_, let properties) = change { print(properties.map(\.name)) }   // ["name"], ["homeCity"], …
    /// }
    /// ```
    /// There is no initial notification. `keyPaths` names the stored property paths the
    /// projection reads (`["firstName", "address.city"]`), as RealmSwift's does; without it,
    /// every projected property counts. Several projected properties reading one stored
    /// property each report a change. Traps for a key path the projection does not read, and
    /// as ``Object/observe(keyPaths:on:_:)-([String]?,_,_)`` traps.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (ObjectChange<Self>) -> Void) -> NotificationToken {
        let schema = ProjectionSchema.of(self, root: Root.self)
        let wanted = keyPaths.flatMap { $0.isEmpty ? nil : Set($0) }
        if let wanted {
            let read = Set(schema.properties.map(\.originPath))
            for path in wanted where !read.contains(path) {
                burrowPreconditionFailure("Key path '\(path)' is not read by any @Projected property of \(type(of: self)); it reads \(read.sorted()).")
            }
        }
        let observed = schema.properties.filter { wanted?.contains($0.originPath) ?? true }
        let projectionType = type(of: self)
        let here: Self? = queue == nil ? self : nil
        return rootObject.observe(keyPaths: Array(Set(observed.map(\.originPath))), on: queue) { (change: ObjectChange<Root>) in
            switch change {
            case .deleted: block(.deleted)
            case .error(let error): block(.error(error))
            case .change(let object, let properties):
                // Old values of derived properties come from an unmanaged object holding the old values.
                let before = Root()
                for property in properties { if let old = property.oldValue { before.setValue(old, forKey: property.name) } }
                var projected: [PropertyChange] = []
                for property in properties {
                    for view in observed where view.originProperty == property.name {
                        projected.append(PropertyChange(name: view.label, oldValue: property.oldValue.flatMap { _ in before[keyPath: view.keyPath] },
                                                        newValue: object[keyPath: view.keyPath]))
                    }
                }
                guard !projected.isEmpty else { return }
                block(.change(here ?? projectionType.init(projecting: object), projected))
            }
        }
    }

    /// ``observe(keyPaths:on:_:)`` with key paths of the projection (`[\PersonView.name]`).
    public func observe(keyPaths: [PartialKeyPath<Self>], on queue: DispatchQueue? = nil,
                        _ block: @escaping (ObjectChange<Self>) -> Void) -> NotificationToken {
        observe(keyPaths: keyPaths.map(originPath(of:)), on: queue, block)
    }

    /// The stored property path a key path of the projection reads; traps when it reads none.
    func originPath(of keyPath: PartialKeyPath<Self>) -> String {
        guard let path = Self.originPath(of: keyPath) else {
            burrowPreconditionFailure("Key path \(keyPath) of \(type(of: self)) reads no @Persisted property of '\(ClassInfo.of(Root.self).className)'.")
        }
        return path
    }
}

extension ProjectionObservable {
    /// The stored property path a key path of the projection reads (`\.homeCity` reads
    /// `address.city`), or `nil` when it reads none: learnt by reading it from a projection of a
    /// probe object.
    static func originPath(of keyPath: PartialKeyPath<Self>) -> String? {
        let recorder = KeyPathRecorder()
        let probe = Self(projecting: ClassInfo.of(Root.self).probe(recordingInto: recorder) as! Root)
        _ = KeyPathRecorder.$active.withValue(recorder) { probe[keyPath: keyPath] }
        return ClassInfo.path(recorder.accessed, from: Root.self)
    }
}
