import Foundation

/// A small thread-safe memo of values worked out once per type: a type's version chain, a fact
/// that cannot differ between documents.
///
/// Working it out walks metatypes, which is cheap but not free; decoding and encoding look it
/// up on every call, so it is kept here.
final class TypeKeyedCache<Value: Sendable>: @unchecked Sendable {
    // NSLock rather than `Mutex` so that the package keeps its deployment targets.
    private let lock = NSLock()
    private var values: [ObjectIdentifier: Value] = [:]

    init() {}

    func value(for type: Any.Type, orMake make: () -> Value) -> Value {
        let key = ObjectIdentifier(type)
        lock.lock()
        if let value = values[key] {
            lock.unlock()
            return value
        }
        lock.unlock()
        // Made outside the lock: making a value may need another cache (a chain needs nothing
        // else today, but a spec's encoding is user code).
        let made = make()
        lock.lock()
        defer { lock.unlock() }
        if let value = values[key] {
            return value
        }
        values[key] = made
        return made
    }
}
