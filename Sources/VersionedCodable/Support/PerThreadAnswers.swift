#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Yes-or-no answers about types that never change while a process runs, kept for each thread,
/// so that the paths every versioned decode and encode take read them without a lock.
///
/// Two questions are kept: whether a key type can name the default spec's `version` key (a
/// synthesized key type is asked by comparing the string with every case name, which costs
/// more than the rest of the check), and whether a type's version chain has been found sound.
/// Each thread has a small table per question, indexed by the type's metadata address: a slot
/// holds the address with the answer in its lowest bit, so a read is one comparison, and a
/// type that meets another in its slot is simply asked again. No lock is needed, because no
/// other thread reads a thread's tables.
@usableFromInline
enum PerThreadAnswers {
    @usableFromInline
    enum Question: Int {
        case keyTypeNamesVersion = 0
        case chainIsSound = 1
    }

    private static let slotsPerQuestion = 64

    /// The answer this thread has kept for `type`, if any.
    @usableFromInline
    static func answer(_ question: Question, for type: Any.Type) -> Bool? {
        guard let table = table() else {
            return nil
        }
        let address = UInt(bitPattern: ObjectIdentifier(type))
        let held = table[slot(question, address)]
        guard held & ~1 == address else {
            return nil
        }
        return held & 1 == 1
    }

    /// Keeps `answer` for `type` on this thread.
    @usableFromInline
    static func keep(_ answer: Bool, _ question: Question, for type: Any.Type) {
        guard let table = table() else {
            return
        }
        let address = UInt(bitPattern: ObjectIdentifier(type))
        // Metadata is at least word-aligned, so the lowest bit of its address is free.
        guard address & 1 == 0 else {
            return
        }
        table[slot(question, address)] = address | (answer ? 1 : 0)
    }

    @inline(__always)
    private static func slot(_ question: Question, _ address: UInt) -> Int {
        question.rawValue * slotsPerQuestion + Int(truncatingIfNeeded: address >> 4) & (slotsPerQuestion - 1)
    }

    #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
        /// The calling thread's tables, made on its first use and freed when the thread ends.
        @inline(__always)
        private static func table() -> UnsafeMutablePointer<UInt>? {
            guard let key else {
                return nil
            }
            if let held = pthread_getspecific(key) {
                return held.assumingMemoryBound(to: UInt.self)
            }
            return makeTable(key)
        }

        private static func makeTable(_ key: pthread_key_t) -> UnsafeMutablePointer<UInt>? {
            let count = 2 * slotsPerQuestion
            let table = UnsafeMutablePointer<UInt>.allocate(capacity: count)
            table.initialize(repeating: 0, count: count)
            guard pthread_setspecific(key, table) == 0 else {
                table.deallocate()
                return nil
            }
            return table
        }

        private static let key: pthread_key_t? = {
            var key = pthread_key_t()
            let made = pthread_key_create(&key) { table in
                // Optional on some platforms and not on others.
                let held: UnsafeMutableRawPointer? = table
                held?.assumingMemoryBound(to: UInt.self).deallocate()
            }
            return made == 0 ? key : nil
        }()
    #else
        // Without POSIX threads the answers are worked out every time.
        @inline(__always)
        private static func table() -> UnsafeMutablePointer<UInt>? { nil }
    #endif
}
