#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Memory each thread has for the library's own use, made on the thread's first use and freed
/// when the thread ends: the tables of ``PerThreadAnswers`` and the working memory of
/// ``ThreadScratch``. No lock guards it, because no other thread reads it.
enum PerThreadMemory {
    /// The words of ``PerThreadAnswers``'s tables, at the start of the block.
    static let answerWords = 128
    /// The words of ``ThreadScratch``, after the tables: enough to walk a binary property list
    /// of about 120 objects, so that a thread keeps 9 KB; a larger document's walk allocates
    /// for itself, which is little beside reading it.
    static let scratchWords = 1_024

    #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
        /// The calling thread's block, `nil` where the thread library cannot keep one.
        @inline(__always)
        static func block() -> UnsafeMutableRawPointer? {
            guard let key else {
                return nil
            }
            if let held = pthread_getspecific(key) {
                return held
            }
            return makeBlock(key)
        }

        private static func makeBlock(_ key: pthread_key_t) -> UnsafeMutableRawPointer? {
            let bytes = (answerWords + scratchWords) * MemoryLayout<UInt>.stride
            let block = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: MemoryLayout<UInt>.alignment)
            block.bindMemory(to: UInt.self, capacity: answerWords).initialize(repeating: 0, count: answerWords)
            (block + answerWords * MemoryLayout<UInt>.stride).bindMemory(to: Int.self, capacity: scratchWords)
            guard pthread_setspecific(key, block) == 0 else {
                block.deallocate()
                return nil
            }
            return block
        }

        private static let key: pthread_key_t? = {
            var key = pthread_key_t()
            let made = pthread_key_create(&key) { block in
                // Optional on some platforms and not on others.
                let held: UnsafeMutableRawPointer? = block
                held?.deallocate()
            }
            return made == 0 ? key : nil
        }()
    #else
        @inline(__always)
        static func block() -> UnsafeMutableRawPointer? { nil }
    #endif

    /// The calling thread's answer tables.
    @inline(__always)
    static func answerTables() -> UnsafeMutablePointer<UInt>? {
        block()?.assumingMemoryBound(to: UInt.self)
    }

    /// The calling thread's scratch words.
    @inline(__always)
    static func scratch() -> UnsafeMutablePointer<Int>? {
        block().map { ($0 + answerWords * MemoryLayout<UInt>.stride).assumingMemoryBound(to: Int.self) }
    }
}
