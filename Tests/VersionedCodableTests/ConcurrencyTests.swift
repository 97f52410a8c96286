import Foundation
import Testing
import VersionedCodable

/// Decoding and encoding from many tasks at once must give every task its own right answer.
/// The chain and version-path caches are filled the first time a type is used, so one test
/// makes that first use from many tasks together. Run under ThreadSanitizer with
/// `swift test --sanitize=thread --filter ConcurrencyTests`.
@Suite("Decoding and encoding from many tasks at once")
struct ConcurrencyTests {
    static let taskCount = 8
    static let iterations = 200

    // MARK: - Types: a three-version chain at the root, and a nested version path

    struct ParcelV0: VersionedCodable, Equatable {
        static let version: Int? = nil
        typealias PreviousVersion = NothingEarlier
        var weight: Int
    }

    struct ParcelV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = ParcelV0
        var grams: Int
        var sender: String

        init(grams: Int, sender: String) {
            self.grams = grams
            self.sender = sender
        }

        init(from old: ParcelV0) throws {
            self.init(grams: old.weight * 1_000, sender: "")
        }
    }

    struct Parcel: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = ParcelV1
        var grams: Int
        var senders: [String]

        init(grams: Int, senders: [String]) {
            self.grams = grams
            self.senders = senders
        }

        init(from old: ParcelV1) throws {
            self.init(grams: old.grams, senders: old.sender.isEmpty ? [] : [old.sender])
        }
    }

    struct StampSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<StampSpec, Int?> { \.meta.version }

        struct Meta: Codable {
            var version: Int?
        }

        var meta: Meta

        enum CodingKeys: String, CodingKey {
            case meta = "_meta"
        }

        init(withVersion version: Int?) {
            meta = Meta(version: version)
        }
    }

    struct StampV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = StampSpec
        var cents: Int
    }

    struct Stamp: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = StampV1
        typealias VersionSpec = StampSpec

        struct Meta: Codable, Equatable {
            var printer: String
        }

        var meta: Meta
        var cents: Int

        enum CodingKeys: String, CodingKey {
            case meta = "_meta"
            case cents
        }

        init(printer: String, cents: Int) {
            meta = Meta(printer: printer)
            self.cents = cents
        }

        init(from old: StampV1) throws {
            self.init(printer: "unknown", cents: old.cents)
        }
    }

    /// Used by one test only, so that its chain and its spec's path are first looked up there,
    /// from many tasks at once.
    struct FirstUseSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<FirstUseSpec, Int?> { \.header.revision }

        struct Header: Codable {
            var revision: Int?
        }

        var header: Header

        init(withVersion version: Int?) {
            header = Header(revision: version)
        }
    }

    struct FirstUseV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = FirstUseSpec
        var count: Int
    }

    struct FirstUseV2: VersionedCodable, Equatable {
        static let version: Int? = 2
        typealias PreviousVersion = FirstUseV1
        typealias VersionSpec = FirstUseSpec
        var count: Int

        init(count: Int) {
            self.count = count
        }

        init(from old: FirstUseV1) throws {
            self.init(count: old.count + 1)
        }
    }

    struct FirstUse: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = FirstUseV2
        typealias VersionSpec = FirstUseSpec
        var count: Int

        init(count: Int) {
            self.count = count
        }

        init(from old: FirstUseV2) throws {
            self.init(count: old.count + 10)
        }
    }

    // MARK: - One task's work

    /// Decodes and encodes values that depend on `task` and `iteration`, so that an answer
    /// meant for another task would be noticed, and returns how many checks passed.
    static func work(task: Int, iteration: Int, sharedDecoder: JSONDecoder) throws -> Int {
        let n = task * 10_000 + iteration
        var passed = 0
        func check(_ condition: Bool, _ what: String) {
            if condition {
                passed += 1
            } else {
                Issue.record("task \(task) iteration \(iteration): \(what)")
            }
        }

        let oldest = Data(#"{"weight":\#(n)}"#.utf8)
        check(try sharedDecoder.decode(versioned: Parcel.self, from: oldest).grams == n * 1_000, "v0 parcel")

        let middle = try JSONEncoder().encode(versioned: ParcelV1(grams: n, sender: "s\(n)"))
        check(
            try JSONDecoder().decode(versioned: Parcel.self, from: middle) == Parcel(grams: n, senders: ["s\(n)"]),
            "v1 parcel"
        )

        let parcel = Parcel(grams: n, senders: ["a\(n)", "b"])
        let plist = try PropertyListEncoder().encode(versioned: parcel)
        let read = try PropertyListDecoder().decodeWithStoredVersion(Parcel.self, from: plist)
        check(read.wrappedValue == parcel && read.storedVersion == 2, "parcel plist round trip")

        let stamp = Stamp(printer: "p\(n)", cents: n)
        let stampJSON = try JSONEncoder().encode(versioned: stamp)
        check(try sharedDecoder.decode(versioned: Stamp.self, from: stampJSON) == stamp, "stamp round trip")
        let oldStamp = try JSONEncoder().encode(versioned: StampV1(cents: n))
        check(
            try JSONDecoder().decode(versioned: Stamp.self, from: oldStamp) == Stamp(printer: "unknown", cents: n),
            "v1 stamp"
        )

        check(VersionChain(for: Parcel.self).versions == [2, 1, nil], "parcel chain")
        return passed
    }

    // MARK: - Tests

    @Test("Eight tasks of two hundred iterations each decode and encode several types correctly")
    func manyTasksManyTypes() async throws {
        let sharedDecoder = JSONDecoder()
        let passed = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<Self.taskCount {
                group.addTask {
                    var passed = 0
                    for iteration in 0..<Self.iterations {
                        passed += try Self.work(task: task, iteration: iteration, sharedDecoder: sharedDecoder)
                    }
                    return passed
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(passed == Self.taskCount * Self.iterations * 6)
    }

    @Test("The first use of a chain and of its version path from many tasks at once gives every task the same")
    func firstUseFromManyTasks() async throws {
        let results = try await withThrowingTaskGroup(of: (Int, [Int?], Int).self) { group in
            for task in 0..<(Self.taskCount * 4) {
                group.addTask {
                    // Alternate which cache is touched first: the chain or the spec's path.
                    let encoded: Data
                    let versions: [Int?]
                    if task.isMultiple(of: 2) {
                        versions = VersionChain(for: FirstUse.self).versions
                        encoded = try JSONEncoder().encode(versioned: FirstUseV1(count: task))
                    } else {
                        encoded = try JSONEncoder().encode(versioned: FirstUseV1(count: task))
                        versions = VersionChain(for: FirstUse.self).versions
                    }
                    let decoded = try JSONDecoder().decode(versioned: FirstUse.self, from: encoded)
                    return (task, versions, decoded.count)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == Self.taskCount * 4)
        for (task, versions, count) in results {
            #expect(versions == [3, 2, 1], "task \(task)")
            #expect(count == task + 11, "task \(task)")
        }
        try FirstUse.validateVersionChain()
        let written = try JSONSerialization.jsonObject(with: JSONEncoder().encode(versioned: FirstUse(count: 1)))
        #expect((written as? [String: Any])?["header"] as? [String: Int] == ["revision": 3])
    }

    @Test("Errors thrown in many tasks at once each describe their own document")
    func errorsFromManyTasks() async {
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<Self.taskCount {
                group.addTask {
                    for iteration in 0..<Self.iterations {
                        let version = 3 + task * Self.iterations + iteration
                        let data = Data(#"{"version":\#(version),"grams":1,"senders":[]}"#.utf8)
                        #expect {
                            try JSONDecoder().decode(versioned: Parcel.self, from: data)
                        } throws: { error in
                            guard case VersionedDecodingError.documentVersionTooNew(let found, _) = error else {
                                return false
                            }
                            return found == version && "\(error)".contains("\(version)")
                        }
                    }
                }
            }
        }
    }

    @Test("The public types cross into a detached task: they are Sendable")
    func publicTypesAreSendable() async throws {
        let chain = VersionChain(for: Parcel.self)
        let versioned = Versioned(Parcel(grams: 5, senders: ["x"]))
        let decodingError = VersionedDecodingError.documentVersionTooNew(found: 9, newest: Parcel.self)
        let encodingError = VersionedEncodingError.typeHasClashingVersionField
        let spec = VersionKeyAtRootVersionPathSpec(withVersion: 4)
        let problem: VersionChainProblem? = chain.problem

        let described = await Task.detached {
            [
                chain.description,
                "\(versioned.wrappedValue.grams) \(String(describing: versioned.storedVersion))",
                decodingError.description,
                encodingError.description,
                "\(String(describing: spec.version))",
                "\(String(describing: problem))",
            ]
        }.value
        #expect(described[0] == chain.description)
        #expect(described[1] == "5 Optional(2)")
        #expect(described[2].contains("9"))
        #expect(described[4] == "Optional(4)")
        #expect(described[5] == "nil")

        // And back: values made in a detached task are returned to this one.
        let made = try await Task.detached {
            let read = try JSONDecoder().decodeWithStoredVersion(Parcel.self, from: Data(#"{"weight":2}"#.utf8))
            return (read, VersionChain(for: Stamp.self))
        }.value
        #expect(made.0.wrappedValue.grams == 2_000)
        #expect(made.0.storedVersion == nil)
        #expect(made.1.versions == [2, 1])
    }
}
