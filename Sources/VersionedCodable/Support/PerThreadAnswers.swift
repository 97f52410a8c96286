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

    private static let slotsPerQuestion = PerThreadMemory.answerWords / 2

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

    /// The calling thread's tables, in its ``PerThreadMemory``.
    @inline(__always)
    private static func table() -> UnsafeMutablePointer<UInt>? {
        PerThreadMemory.answerTables()
    }
}
