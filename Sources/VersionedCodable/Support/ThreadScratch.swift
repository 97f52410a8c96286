#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Working memory for a walk that runs on every decode of a binary property list, kept per
/// thread so that the walk allocates nothing once a thread has walked a document of that size.
///
/// No user code runs while the memory is lent, so a thread never lends it twice at once.
enum ThreadScratch {
    /// The most words kept for a thread; a walk that needs more allocates for itself.
    private static let keptWords = 4_096

    /// Calls `body` with `count` words of memory that it may use until it returns.
    static func withWords<Result>(_ count: Int, _ body: (UnsafeMutableBufferPointer<Int>) -> Result) -> Result {
        if count <= keptWords, let kept = kept() {
            return body(UnsafeMutableBufferPointer(start: kept, count: count))
        }
        let memory = UnsafeMutableBufferPointer<Int>.allocate(capacity: count)
        defer { memory.deallocate() }
        return body(memory)
    }

    #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
        private static func kept() -> UnsafeMutablePointer<Int>? {
            guard let key else {
                return nil
            }
            if let held = pthread_getspecific(key) {
                return held.assumingMemoryBound(to: Int.self)
            }
            let memory = UnsafeMutablePointer<Int>.allocate(capacity: keptWords)
            guard pthread_setspecific(key, memory) == 0 else {
                memory.deallocate()
                return nil
            }
            return memory
        }

        private static let key: pthread_key_t? = {
            var key = pthread_key_t()
            let made = pthread_key_create(&key) { memory in
                // Optional on some platforms and not on others.
                let held: UnsafeMutableRawPointer? = memory
                held?.assumingMemoryBound(to: Int.self).deallocate()
            }
            return made == 0 ? key : nil
        }()
    #else
        private static func kept() -> UnsafeMutablePointer<Int>? { nil }
    #endif
}
