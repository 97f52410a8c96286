import Foundation
import Testing
import VersionedCodable

@testable import PoemHistory

@Suite("Listing and validating a version chain")
struct VersionChainTests {
    struct LoopA: VersionedCodable {
        static let version: Int? = 2
        typealias PreviousVersion = LoopB
        init(from old: LoopB) throws {}
    }
    struct LoopB: VersionedCodable {
        static let version: Int? = 1
        typealias PreviousVersion = LoopA
        init(from old: LoopA) throws {}
    }
    struct SelfLoop: VersionedCodable {
        static let version: Int? = 1
        typealias PreviousVersion = SelfLoop
        init(from old: SelfLoop) throws {}
    }
    struct TwinOld: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var old: Int
    }
    struct TwinNew: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = TwinOld
        var new: Int
        init(from old: TwinOld) throws { new = old.old }
    }
    /// The same twins under a `_metadata.version` spec, whose place the chain is asked for.
    struct MetadataTwinOld: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        typealias VersionSpec = MetadataVersionSpec
        var old: Int
    }
    struct MetadataTwinNew: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = MetadataTwinOld
        typealias VersionSpec = MetadataVersionSpec
        var new: Int
        init(new: Int) { self.new = new }
        init(from old: MetadataTwinOld) throws { new = old.old }
    }

    struct Lowest: VersionedCodable, Equatable {
        static let version: Int? = .min
        typealias PreviousVersion = NothingEarlier
        var text: String
    }
    struct Highest: VersionedCodable, Equatable {
        static let version: Int? = .max
        typealias PreviousVersion = Lowest
        var text: String
        init(text: String) { self.text = text }
        init(from old: Lowest) throws { text = old.text + " migrated" }
    }
    struct GapOld: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var text: String
    }
    struct GapNew: VersionedCodable, Equatable {
        static let version: Int? = 3
        typealias PreviousVersion = GapOld
        var text: String
        init(from old: GapOld) throws { text = old.text }
    }

    @Test("Versions at the ends of Int's range are found, and nothing between them is")
    func extremeVersions() throws {
        let low = try JSONDecoder().decode(
            versioned: Highest.self,
            from: Data(#"{"version":\#(Int.min),"text":"a"}"#.utf8)
        )
        #expect(low == Highest(text: "a migrated"))
        let high = try JSONDecoder().decode(
            versioned: Highest.self,
            from: Data(#"{"version":\#(Int.max),"text":"b"}"#.utf8)
        )
        #expect(high == Highest(text: "b"))
        #expect(throws: VersionedDecodingError.unsupportedVersion(tried: Lowest.self)) {
            try JSONDecoder().decode(versioned: Highest.self, from: Data(#"{"version":0,"text":"c"}"#.utf8))
        }
    }

    @Test("A version in a gap of the chain is not supported")
    func versionInAGap() throws {
        #expect(throws: VersionedDecodingError.unsupportedVersion(tried: GapOld.self)) {
            try JSONDecoder().decode(versioned: GapNew.self, from: Data(#"{"version":2,"text":"c"}"#.utf8))
        }
        let old = try JSONDecoder().decode(versioned: GapNew.self, from: Data(#"{"version":1,"text":"d"}"#.utf8))
        #expect(old.text == "d")
    }

    @Test("After a chain has been found sound, a document too new, too old or in a gap still gets its own error")
    func errorsAfterTheChainIsKnownSound() throws {
        // The same thread decodes a good document first, so the chain is known sound when the
        // others come.
        let good = try JSONDecoder().decode(versioned: GapNew.self, from: Data(#"{"version":3,"text":"a"}"#.utf8))
        #expect(good.text == "a")
        do {
            _ = try JSONDecoder().decode(versioned: GapNew.self, from: Data(#"{"version":9,"text":"b"}"#.utf8))
            Issue.record("decoded a document newer than the chain")
        } catch VersionedDecodingError.documentVersionTooNew(let found, let newest) {
            #expect(found == 9)
            #expect(ObjectIdentifier(newest) == ObjectIdentifier(GapNew.self))
        }
        for stored in ["2", "0", "null"] {
            #expect(throws: VersionedDecodingError.unsupportedVersion(tried: GapOld.self)) {
                try JSONDecoder().decode(
                    versioned: GapNew.self,
                    from: Data(#"{"version":\#(stored),"text":"c"}"#.utf8)
                )
            }
        }
        struct Shelf: Decodable { var notes: [Versioned<GapNew>] }
        let shelf = Data(#"{"notes": [{"version":3,"text":"a"}, {"version":9,"text":"b"}]}"#.utf8)
        do {
            _ = try JSONDecoder().decode(Shelf.self, from: shelf)
            Issue.record("decoded a part newer than the chain")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription.contains("has version 9"))
            guard case VersionedDecodingError.documentVersionTooNew(9, _)? = context.underlyingError else {
                Issue.record("underlying error: \(String(describing: context.underlyingError))")
                return
            }
        }
    }

    // snippet: validate-chain
    @Test("The poem chain is sound")
    func poemChainIsValid() throws {
        try Poem.validateVersionChain()
        #expect(VersionChain(for: Poem.self).versions == [4, 3, 2, 1, nil])
    }
    // end snippet

    /// A spec that never writes the version it is given.
    struct ForgetfulSpec: VersionPathSpec {
        static var keyPathToVersion: KeyPath<Self, Int?> { \Self.formatVersion }
        var formatVersion: Int?
        init(withVersion version: Int?) { formatVersion = nil }
    }

    struct ForgetfulNoteV1: VersionedCodable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var text: String
    }

    struct ForgetfulNote: VersionedCodable {
        static let version: Int? = 2
        typealias PreviousVersion = ForgetfulNoteV1
        typealias VersionSpec = ForgetfulSpec
        var text: String
        init(from old: ForgetfulNoteV1) throws { text = old.text }
    }

    @Test("A spec whose version does not read back is reported by validateVersionChain, naming the type")
    func versionThatDoesNotReadBack() throws {
        let error = #expect(throws: VersionedDecodingError.self) { try ForgetfulNote.validateVersionChain() }
        guard case .invalidVersionChain(let problem)? = error else {
            Issue.record("expected invalidVersionChain, got \(String(describing: error))")
            return
        }
        #expect(problem == .versionNotReadBack(ForgetfulNote.self, readAs: nil))
        #expect(
            "\(problem)"
                == "ForgetfulNote writes version 2 through ForgetfulSpec, but a document holding it reads back as "
                + "version nil; keyPathToVersion must lead to the value init(withVersion:) sets."
        )
        // Decoding does not pay for the check: the chain itself is sound.
        #expect(VersionChain(for: ForgetfulNote.self).problem == nil)
    }

    /// Declares that builds of version 1 may read and write it, with a spec that writes the
    /// version as a string, beside which they cannot be named.
    struct CompatibleLabel: VersionedCodable {
        static let version: Int? = 2
        static let compatibility = ForwardCompatibility.compatible
        typealias PreviousVersion = MovedToRootTests.LabelV1
        typealias VersionSpec = StringVersionSpec
        var text: String
        init(text: String) { self.text = text }
        init(from old: MovedToRootTests.LabelV1) { text = old.text }
    }

    @Test(
        "A version that names older builds where its spec cannot say where the version is fails validation, as its encode does"
    )
    func olderBuildsThatCannotBeNamed() throws {
        let validated = #expect(throws: VersionedDecodingError.self) { try CompatibleLabel.validateVersionChain() }
        let encoded = #expect(throws: VersionedDecodingError.self) {
            try JSONEncoder().encode(versioned: CompatibleLabel(text: "a"))
        }
        for error in [validated, encoded] {
            guard case .invalidVersionChain(.unsupportedSpec(let spec, let reason))? = error else {
                Issue.record("expected unsupportedSpec, got \(String(describing: error))")
                continue
            }
            #expect(spec is StringVersionSpec.Type)
            #expect(reason.contains("declare this version incompatible"))
        }
        // The previous version, which names no older builds, is sound.
        try MovedToRootTests.LabelV1.validateVersionChain()
    }

    @Test("Chains whose specs read back validate, a chain whose version moved between specs included")
    func chainsThatReadBack() throws {
        try VersionPlacementTests.Moved.validateVersionChain()
        try ForgetfulNoteV1.validateVersionChain()
        try UnwrappedNote.validateVersionChain()
        try OptionalParentNote.validateVersionChain()
    }

    @Test("The chain lists types and versions newest first")
    func listsChain() {
        let chain = VersionChain(for: Poem.self)
        #expect(chain.versions == [4, 3, 2, 1, nil])
        #expect(chain.types.map { "\($0)" } == ["Poem", "PoemV3", "PoemV2", "PoemV1", "PoemV0"])
        #expect(isSameType(chain.newest, Poem.self))
        #expect(isSameType(chain.oldest, PoemV0.self))
        #expect(chain.problem == nil)
        #expect("\(chain)" == "Poem (4) → PoemV3 (3) → PoemV2 (2) → PoemV1 (1) → PoemV0 (nil)")
        #expect(throws: Never.self) { try Poem.validateVersionChain() }
    }

    @Test("A loop between two types is reported, naming them, instead of recursing forever")
    func loopIsReported() throws {
        let chain = VersionChain(for: LoopA.self)
        guard case .typeAppearsTwice(let type, let path)? = chain.problem else {
            Issue.record("expected a loop, got \(String(describing: chain.problem))")
            return
        }
        #expect(isSameType(type, LoopA.self))
        #expect(path.map { "\($0)" } == ["LoopA", "LoopB"])
        let error = #expect(throws: VersionedDecodingError.self) { try LoopA.validateVersionChain() }
        #expect("\(error!)".contains("LoopA appears twice"))
        #expect("\(error!)".contains("LoopA → LoopB → LoopA"))
        // Decoding a version no type has would walk the loop forever; it throws instead.
        #expect(throws: VersionedDecodingError.self) {
            try JSONDecoder().decode(versioned: LoopA.self, from: Data(#"{"version": 7}"#.utf8))
        }
        #expect(throws: VersionedDecodingError.self) {
            try JSONDecoder().decode(versioned: LoopA.self, from: Data(#"{"version": 2}"#.utf8))
        }
    }

    /// A generic type whose previous version is itself with another argument: every type of
    /// its chain is new, and the chain never ends. Each has a version of its own.
    struct Endless<T: Codable>: VersionedCodable {
        static var version: Int? { Int(bitPattern: UInt(bitPattern: ObjectIdentifier(Self.self))) }
        typealias PreviousVersion = Endless<[T]>
        var x: Int?
        init(from old: Endless<[T]>) throws { x = old.x }
    }

    /// The same shape, with the `nil` version for every type.
    struct EndlessUnversioned<T: Codable>: VersionedCodable {
        static var version: Int? { nil }
        typealias PreviousVersion = EndlessUnversioned<[T]>
        var x: Int?
        init(from old: EndlessUnversioned<[T]>) throws { x = old.x }
    }

    @Test("A chain that never ends is reported instead of walked forever")
    func endlessChain() throws {
        #expect(VersionChain(for: Endless<Int>.self).problem == .tooLong(Endless<Int>.self, count: 10_000))
        do {
            _ = try JSONDecoder().decode(versioned: Endless<Int>.self, from: Data(#"{"x": 1}"#.utf8))
            Issue.record("decoded through a chain that never ends")
        } catch VersionedDecodingError.invalidVersionChain(let problem) {
            #expect("\(problem)".contains("Endless<Int>"))
            #expect("\(problem)".contains("never ends"))
        }
        #expect(throws: VersionedDecodingError.self) { try EndlessUnversioned<Int>.validateVersionChain() }
        guard case .duplicateVersion? = VersionChain(for: EndlessUnversioned<Int>.self).problem else {
            Issue.record("an endless chain of nil versions is not reported as two nil versions")
            return
        }
    }

    @Test("A type that is its own previous version is a loop")
    func selfLoopIsReported() throws {
        #expect(
            throws: VersionedDecodingError.invalidVersionChain(.typeAppearsTwice(SelfLoop.self, chain: [SelfLoop.self]))
        ) {
            try SelfLoop.validateVersionChain()
        }
        #expect(throws: VersionedDecodingError.self) {
            try PropertyListDecoder().decode(
                versioned: SelfLoop.self,
                from: PropertyListEncoder().encode(["version": 3])
            )
        }
    }

    @Test("Two types with one version are reported instead of one being picked silently")
    func duplicateVersionIsReported() throws {
        let chain = VersionChain(for: TwinNew.self)
        #expect(chain.problem == .duplicateVersion(1, types: [TwinNew.self, TwinOld.self]))
        let error = #expect(throws: VersionedDecodingError.self) {
            try JSONDecoder().decode(versioned: TwinNew.self, from: Data(#"{"version": 1, "new": 1, "old": 2}"#.utf8))
        }
        let description = "\(error!)"
        #expect(description.contains("TwinNew and TwinOld both have version 1"))
    }

    @Test("A chain with two types of one version under a custom spec is refused on writing, at the root and as a part")
    func duplicateVersionRefusedOnWriting() throws {
        let problem = VersionChainProblem.duplicateVersion(1, types: [MetadataTwinNew.self, MetadataTwinOld.self])
        #expect(throws: VersionedDecodingError.invalidVersionChain(problem)) {
            try JSONEncoder().encode(versioned: MetadataTwinNew(new: 1))
        }
        #expect(throws: VersionedDecodingError.invalidVersionChain(problem)) {
            try PropertyListEncoder().encode(versioned: MetadataTwinNew(new: 1), asVersion: 1)
        }
        let part = #expect(throws: (any Error).self) {
            try JSONEncoder().encode(["note": Versioned(MetadataTwinNew(new: 1))])
        }
        #expect("\(part.map { "\($0)" } ?? "")".contains("both have version 1"))
    }

    @Test("Validation errors compare equal only for the same problem")
    func problemsCompare() {
        #expect(
            VersionChainProblem.duplicateVersion(1, types: [TwinNew.self])
                != .duplicateVersion(2, types: [TwinNew.self])
        )
        #expect(
            VersionChainProblem.duplicateVersion(1, types: [TwinNew.self]) != .typeAppearsTwice(TwinNew.self, chain: [])
        )
    }
}
