/// What happened to an observed object (``Object/observe(keyPaths:on:_:)-([String]?,_,_)``).
@frozen
public enum ObjectChange<T> {
    /// The observation could not go on; no notification follows.
    case error(any Error)
    /// Properties of the object changed; `T` is the object at the new version.
    case change(T, [PropertyChange])
    /// The object was deleted; no notification follows.
    case deleted
}

