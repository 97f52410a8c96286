/// The walk of a binary property list's object table that finds what Foundation's reader could
/// not finish: arrays and dictionaries nested too deep, an array or dictionary that contains
/// itself, and arrays and dictionaries referred to so often that reading them would never end.
///
/// A binary property list is a table of objects that refer to each other by number: an array
/// lists the numbers of its elements, a dictionary those of its keys and values. Foundation
/// reads the objects a decode asks for by following the numbers from the top object, without
/// remembering what it has read. A type that reads its own kind inside itself therefore goes
/// round an array that contains itself until the stack overflows, unless something stops it
/// first (as ``maximumVersionedPartDepth`` stops the fuzz target's `Outline`), and reads forty
/// arrays that each list the next one twice 2⁴⁰ times: 24 of them took 17 seconds in a release
/// build. The filter cannot tell how far a decode will follow the numbers, so it counts every
/// object that reading the whole document would meet. The walk here remembers each object's
/// depth and size, so it looks at every object once.
///
/// The layout it reads is Apple's published one: the header `bplist`, the objects, a table of
/// their offsets, and a 32-byte trailer that says how wide offsets and object numbers are, how
/// many objects there are, which is the top one and where the offset table starts. Anything
/// that does not fit that layout is left for Foundation, which throws for it.
struct BinaryPropertyListWalk {
    /// Why a binary property list is refused.
    enum Refusal: Equatable {
        case tooDeep
        case containsItself
        case expandsTooFar
    }

    private let bytes: UnsafeRawBufferPointer
    private let offsetSize: Int
    private let referenceSize: Int
    private let objectCount: Int
    private let offsetTable: Int

    /// Reads the trailer of `bytes`; `nil` when it does not describe a table within the bytes.
    init?(_ bytes: UnsafeRawBufferPointer) {
        let count = bytes.count
        guard count >= 8 + 32 else {
            return nil
        }
        let trailer = count - 32
        self.bytes = bytes
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
            let objects = Self.integer(bytes, at: trailer + 8, size: 8),
            let table = Self.integer(bytes, at: trailer + 24, size: 8),
            objects > 0, objects <= count, table >= 8, table <= trailer,
            objects <= (trailer - table) / offsetSize
        else {
            return nil
        }
        objectCount = objects
        offsetTable = table
    }

    /// The top object's number, as the trailer gives it.
    private var topObject: Int? {
        Self.integer(bytes, at: bytes.count - 32 + 16, size: 8)
    }

    /// Walks the objects reachable from the top one.
    ///
    /// - Parameters:
    ///   - maximumDepth: How many arrays and dictionaries may nest.
    ///   - maximumExpansion: How many arrays and dictionaries reading may meet, counting one that
    ///     is referred to twice twice, as a reader that does not remember them does.
    /// - Returns: What Foundation's reader could not finish, or `nil`.
    func refusal(maximumDepth: Int, maximumExpansion: Int) -> Refusal? {
        guard let top = topObject, top < objectCount, let first = container(top) else {
            return nil
        }
        // For each object its depth and its size (see `Walk`), then the frames of the
        // containers being walked.
        let frameCapacity = min(objectCount, maximumDepth) + 1
        let memory = UnsafeMutableBufferPointer<Int>.allocate(
            capacity: 2 * objectCount + frameCapacity * Walk.frameWords
        )
        defer { memory.deallocate() }
        memory.initialize(repeating: 0)
        var walk = Walk(memory: memory, objectCount: objectCount)
        return walk.run(from: top, first, in: self, maximumDepth: maximumDepth, maximumExpansion: maximumExpansion)
    }

    /// The walk's memory: for each object, its depth (0 not yet seen, -1 being walked, else one
    /// more than the arrays and dictionaries nested in it, itself included, so 1 for a single
    /// value) and how many containers reading it meets; then a stack of frames, each the
    /// object's number, where its references start, how many there are, the next to follow,
    /// the deepest nesting below it so far and how many containers its references meet so far.
    ///
    /// A stack of its own rather than recursion, so that the walk does not overflow the stack on
    /// the nesting it is there to find.
    fileprivate struct Walk {
        static let frameWords = 6
        let memory: UnsafeMutableBufferPointer<Int>
        let objectCount: Int
        var frames = 0

        private var stackStart: Int { 2 * objectCount }

        func depth(_ object: Int) -> Int { memory[object] }
        func size(_ object: Int) -> Int { memory[objectCount + object] }
        func setDepth(_ object: Int, _ value: Int) { memory[object] = value }
        func setSize(_ object: Int, _ value: Int) { memory[objectCount + object] = value }
        func frame(_ index: Int, _ field: Int) -> Int { memory[stackStart + index * Self.frameWords + field] }
        func setFrame(_ index: Int, _ field: Int, _ value: Int) {
            memory[stackStart + index * Self.frameWords + field] = value
        }

        mutating func push(_ object: Int, _ container: Container) {
            setDepth(object, -1)
            setFrame(frames, 0, object)
            setFrame(frames, 1, container.firstReference)
            setFrame(frames, 2, container.references)
            setFrame(frames, 3, 0)
            setFrame(frames, 4, 0)
            setFrame(frames, 5, 0)
            frames += 1
        }

        /// Adds a child's depth and size to the frame on top.
        func record(depth: Int, size: Int) {
            let top = frames - 1
            setFrame(top, 4, max(frame(top, 4), depth))
            setFrame(top, 5, BinaryPropertyListWalk.adding(frame(top, 5), size))
        }

        mutating func run(
            from top: Int,
            _ first: Container,
            in walk: BinaryPropertyListWalk,
            maximumDepth: Int,
            maximumExpansion: Int
        ) -> Refusal? {
            push(top, first)
            while frames > 0 {
                let current = frames - 1
                let next = frame(current, 3)
                if next < frame(current, 2) {
                    setFrame(current, 3, next + 1)
                    guard let child = walk.reference(frame(current, 1), next), child < objectCount else {
                        // Foundation throws for a reference outside the table.
                        return nil
                    }
                    switch depth(child) {
                    case -1:
                        return .containsItself
                    case 0:
                        guard let nested = walk.container(child) else {
                            // A single value, or something Foundation will refuse.
                            setDepth(child, 1)
                            continue
                        }
                        guard frames < maximumDepth else {
                            return .tooDeep
                        }
                        push(child, nested)
                    default:
                        // Read before, from elsewhere: Foundation reads it again here, as deep
                        // as it nests below this place.
                        let nesting = depth(child) - 1
                        guard frames + nesting <= maximumDepth else {
                            return .tooDeep
                        }
                        record(depth: nesting, size: size(child))
                    }
                } else {
                    frames -= 1
                    let object = frame(current, 0)
                    let nesting = frame(current, 4) + 1
                    let total = BinaryPropertyListWalk.adding(frame(current, 5), 1)
                    guard total <= maximumExpansion else {
                        return .expandsTooFar
                    }
                    setDepth(object, nesting + 1)
                    setSize(object, total)
                    if frames > 0 {
                        record(depth: nesting, size: total)
                    }
                }
            }
            return nil
        }
    }

    /// Where an array, set or dictionary lists the objects it refers to.
    fileprivate struct Container {
        let firstReference: Int
        /// How many references follow: a dictionary's keys and its values.
        let references: Int
    }

    /// The references of object `number`, if it is an array, set or dictionary that fits within
    /// the bytes.
    fileprivate func container(_ number: Int) -> Container? {
        guard let offset = Self.integer(bytes, at: offsetTable + number * offsetSize, size: offsetSize),
            offset >= 8, offset < bytes.count - 32
        else {
            return nil
        }
        let marker = bytes[offset]
        let kind = marker >> 4
        // 0xA array, 0xB ordered set, 0xC set, 0xD dictionary.
        guard kind >= 0xA, kind <= 0xD else {
            return nil
        }
        var count = Int(marker & 0x0F)
        var first = offset + 1
        if count == 0x0F {
            // The count is an integer object of its own: a marker 0x1n and 2ⁿ bytes.
            guard first < bytes.count else {
                return nil
            }
            let sizeMarker = bytes[first]
            guard sizeMarker >> 4 == 0x1, sizeMarker & 0x0F <= 3 else {
                return nil
            }
            let size = 1 << Int(sizeMarker & 0x0F)
            guard let read = Self.integer(bytes, at: first + 1, size: size) else {
                return nil
            }
            count = read
            first += 1 + size
        }
        let (references, overflow) = kind == 0xD ? count.multipliedReportingOverflow(by: 2) : (count, false)
        guard !overflow, first <= bytes.count, references <= (bytes.count - first) / referenceSize else {
            return nil
        }
        return Container(firstReference: first, references: references)
    }

    fileprivate func reference(_ first: Int, _ index: Int) -> Int? {
        Self.integer(bytes, at: first + index * referenceSize, size: referenceSize)
    }

    /// The big-endian unsigned integer of `size` bytes at `offset`, if it fits in the bytes and
    /// in an `Int`.
    private static func integer(_ bytes: UnsafeRawBufferPointer, at offset: Int, size: Int) -> Int? {
        guard offset >= 0, size <= bytes.count, offset <= bytes.count - size else {
            return nil
        }
        var value: UInt64 = 0
        for index in offset..<(offset + size) {
            value = value << 8 | UInt64(bytes[index])
        }
        return value <= UInt64(Int.max) ? Int(value) : nil
    }

    /// `a + b`, held at `Int.max` rather than overflowing.
    fileprivate static func adding(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }
}
