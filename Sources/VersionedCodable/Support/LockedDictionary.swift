import Foundation

/// A dictionary shared between tasks, for the spec trees kept per spec and version.
final class LockedDictionary<Key: Hashable, Value>: @unchecked Sendable {
    // `@unchecked`: every access goes through the lock. NSLock rather than `Mutex` so that the
    // package keeps its deployment targets.
    private let lock = NSLock()
    private var values: [Key: Value] = [:]

    func value(for key: Key) -> Value? {
        lock.lock()
        defer { lock.unlock() }
        return values[key]
    }

    func store(_ value: Value, for key: Key) {
        lock.lock()
        defer { lock.unlock() }
        values[key] = value
    }
}
