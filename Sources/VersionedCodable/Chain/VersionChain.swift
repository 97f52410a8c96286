// `@unchecked` because metatypes are not `Sendable` to the compiler; they are immutable and safe
// to share between tasks, and nothing else here is mutable.
/// The versions of a ``VersionedCodable`` type, newest first, as its `PreviousVersion` links
/// them.
///
/// Use it to see which versions a type can read, and to check from a unit test that the chain
/// is sound, so that a mistake is caught in CI rather than when a user opens an old document:
///
/// ```swift
/// @Test("The poem chain is sound")
/// func poemChainIsValid() throws {
///     try Poem.validateVersionChain()
///     #expect(VersionChain(for: Poem.self).versions == [4, 3, 2, 1, nil])
/// }
/// ```
///
/// A chain is sound when every version in it is different and no type appears twice. Decoding
/// checks this (once per type) and throws ``VersionedDecodingError/invalidVersionChain(_:)``
/// rather than looping or picking one of two types with the same version.
public struct VersionChain: @unchecked Sendable, CustomStringConvertible {
    /// The types of the chain, newest first, ending with the type whose `PreviousVersion` is
    /// ``NothingEarlier``. A chain that loops ends at the first type that repeats.
    public let types: [any VersionedCodable.Type]

    /// What is wrong with the chain, or `nil` if it is sound.
    public let problem: VersionChainProblem?

    /// Lists the chain that ends at `newest`.
    ///
    /// - Parameter newest: The current version of a type.
    public init<Newest: VersionedCodable>(for newest: Newest.Type) {
        self = VersionChain.cache.value(for: newest) { VersionChain(walkingFrom: newest) }
    }

    private init(walkingFrom newest: any VersionedCodable.Type) {
        var types: [any VersionedCodable.Type] = []
        var seen: Set<ObjectIdentifier> = []
        var firstWithVersion: [Int?: any VersionedCodable.Type] = [:]
        var problem: VersionChainProblem?
        var current = newest
        // Each problem ends the walk where it is found, so that a chain that never ends (a
        // generic type whose previous version is itself with another argument) is reported
        // too, rather than walked forever.
        while current != NothingEarlier.self {
            guard seen.insert(ObjectIdentifier(current)).inserted else {
                problem = .typeAppearsTwice(current, chain: types)
                break
            }
            types.append(current)
            // `Never` can end a chain below a type whose version is also `nil`, as in 1.2: it is
            // uninhabited, so no document is ever decoded as it, and the type above it is found
            // first.
            if current != Never.self {
                if let earlier = firstWithVersion[current.version] {
                    problem = .duplicateVersion(current.version, types: [earlier, current])
                    break
                }
                firstWithVersion[current.version] = current
            }
            guard types.count < VersionChain.maximumLength else {
                problem = .tooLong(newest, count: types.count)
                break
            }
            current = current.previousVersionType
        }
        self.types = types
        self.versions = types.map { $0.version }
        var specs: [(type: any VersionPathSpec.Type, versionOffset: Int?)] = []
        for type in types where !specs.contains(where: { $0.type == type.versionSpecType }) {
            specs.append((type.versionSpecType, type.versionSpecType.versionOffset))
        }
        self.specs = specs
        self.problem = problem
        declaringVersions = problem == nil ? types.filter { $0.olderBuilds != nil }.map { $0.version } : []
        let numbered = versions.compactMap { $0 }
        if numbered.count == versions.count, let low = numbered.min(), let high = numbered.max(),
            high.subtractingReportingOverflow(low) == (numbered.count - 1, false), Set(numbered).count == numbered.count
        {
            span = low...high
        } else {
            span = nil
        }
    }

    /// The most types a chain may have. Far more than any type's history, and few enough to
    /// walk quickly: a chain that is longer never ends.
    public static let maximumLength = 10_000

    /// The specs the chain's types keep their versions with, each once, newest first, with where
    /// each keeps the version in its own value, when its key path is one of stored properties.
    let specs: [(type: any VersionPathSpec.Type, versionOffset: Int?)]

    /// The spec that the type with `version` keeps its version with: its place in ``specs``, and
    /// where it keeps the version in its value.
    func spec(of version: Int?) -> (index: Int, type: any VersionPathSpec.Type, versionOffset: Int?)? {
        guard let at = versions.firstIndex(of: version) else {
            return nil
        }
        let type = types[at].versionSpecType
        guard let index = specs.firstIndex(where: { $0.type == type }) else {
            return nil
        }
        return (index, type, specs[index].versionOffset)
    }

    /// Whether a type of the chain has `version`.
    @usableFromInline
    func contains(version: Int?) -> Bool {
        if let span, let version {
            return span.contains(version)
        }
        return versions.contains(version)
    }

    /// The numbered versions of the chain, newest first, those of the types that keep their
    /// versions with `spec` first: the versions `spec` is asked to write, to see where what it
    /// writes changes with the version. A spec is asked only for versions of the chain, unless
    /// the chain has no other.
    func numberedVersions(for spec: any VersionPathSpec.Type) -> [Int] {
        let own = ownVersions(for: spec).compactMap { $0 }
        return own + versions.compactMap { $0 }.filter { !own.contains($0) }
    }

    /// The versions of the types that keep their version with `spec`, newest first: those its
    /// builds know.
    func ownVersions(for spec: any VersionPathSpec.Type) -> [Int?] {
        types.filter { $0.versionSpecType == spec }.map { $0.version }
    }

    /// A version of the chain other than `version` for `spec` to write: one of its own types'
    /// first, another numbered one next, and then `nil` where the chain has it; one beside
    /// `version` only where the chain has no other.
    func otherVersion(than version: Int?, for spec: any VersionPathSpec.Type) -> Int? {
        if let other = numberedVersions(for: spec).first(where: { $0 != version }) {
            return other
        }
        if version != nil, versions.contains(nil) {
            return nil
        }
        return version.map { $0 == .max ? $0 - 1 : $0 + 1 } ?? 1
    }

    /// The versions whose documents name the older builds that may read them.
    private let declaringVersions: [Int?]

    /// Whether a document of `version` may name older builds beside its version: one of a
    /// version that declares them, or one newer than the chain.
    func mayNameOlderBuilds(version: Int?) -> Bool {
        !declaringVersions.isEmpty && declaringVersions.contains(version) || !contains(version: version)
    }

    /// The versions, when they are every integer from the lowest to the highest once: then
    /// finding a stored version in a long chain is two comparisons.
    private let span: ClosedRange<Int>?

    /// The versions of ``types``, in the same order.
    ///
    /// Kept rather than computed, because every decode looks the stored version up in it.
    public let versions: [Int?]

    /// The newest type, the one the chain was listed for.
    ///
    /// The chain of ``NothingEarlier`` itself has no types; its newest and oldest type is
    /// ``NothingEarlier``.
    public var newest: any VersionedCodable.Type { types.first ?? NothingEarlier.self }

    /// The oldest type: the one whose `PreviousVersion` is ``NothingEarlier``.
    public var oldest: any VersionedCodable.Type { types.last ?? NothingEarlier.self }

    /// Throws if the chain is not sound, if a version that a type's spec writes does not read
    /// back as that version, or if a version that names the older builds that may read it has a
    /// spec that writes the version as no integer, which every encode of it would refuse.
    ///
    /// - Throws: ``VersionedDecodingError/invalidVersionChain(_:)`` describing the problem.
    public func validate() throws {
        if let problem = problem ?? versionNotReadBack() {
            throw VersionedDecodingError.invalidVersionChain(problem)
        }
    }

    /// The chain as `Poem (4) → PoemV3 (3) → … → PoemV0 (nil)`.
    public var description: String {
        types.map { "\($0) (\(describeVersion($0.version)))" }.joined(separator: " → ")
    }

    /// The highest numbered version of the chain: a stored version above it is newer than the
    /// chain knows.
    var newestNumbered: Int? { versions.lazy.compactMap { $0 }.max() }

    /// Throws the error a decoder should report for a document stored with `storedVersion`, where
    /// the chain has a problem or no type in it has that version.
    @usableFromInline
    func checkCanDecode(storedVersion: Int?) throws {
        if let problem {
            throw VersionedDecodingError.invalidVersionChain(problem)
        }
        if let storedVersion, let newestKnown = newestNumbered, storedVersion > newestKnown {
            throw VersionedDecodingError.documentVersionTooNew(found: storedVersion, newest: newest)
        }
        throw VersionedDecodingError.unsupportedVersion(tried: oldest)
    }

    /// Checks that `version` is in the chain, for writing an older version.
    func checkCanEncode(asVersion version: Int?) throws {
        if let problem {
            throw VersionedDecodingError.invalidVersionChain(problem)
        }
        guard types.contains(where: { $0.version == version }) else {
            throw VersionedEncodingError.versionNotInChain(version, chain: self)
        }
    }

    static let cache = TypeKeyedCache<VersionChain>()
}

// `@unchecked` because metatypes are not `Sendable` to the compiler; they are immutable and safe
// to share between tasks, and nothing else here is mutable.
/// What makes a ``VersionChain`` unsound.
public enum VersionChainProblem: @unchecked Sendable, Equatable, CustomStringConvertible {
    /// Two types in the chain have the same version, so a document of that version could be
    /// either.
    case duplicateVersion(Int?, types: [any VersionedCodable.Type])

    /// A type is its own ancestor: following `PreviousVersion` from the newest type comes back
    /// to it. `chain` lists the types up to the repeat.
    case typeAppearsTwice(any VersionedCodable.Type, chain: [any VersionedCodable.Type])

    /// What a type's spec writes for the type's version does not read back as that version
    /// through the chain's newest type, so the library would write documents of that type that
    /// it cannot read. `readAs` is the version read instead (`nil` for none, or when reading
    /// threw). The spec's ``VersionPathSpec/keyPathToVersion`` must lead to the value its
    /// ``VersionPathSpec/init(withVersion:)`` sets.
    case versionNotReadBack(any VersionedCodable.Type, readAs: Int?)

    /// The chain from this type has more than ``VersionChain/maximumLength`` types without
    /// reaching ``NothingEarlier``: a generic type whose `PreviousVersion` is itself with
    /// another argument (`Item<[T]>` before `Item<T>`) never ends.
    case tooLong(any VersionedCodable.Type, count: Int)

    /// What the spec writes cannot be merged into a document, or cannot name the older builds
    /// that may read it: it writes a single value or an array at the root, an array piece by
    /// piece, objects nested more than 512 deep, or, for a version that declares older builds
    /// may read it, no integer that reads back as the version. `reason` says which.
    case unsupportedSpec(any VersionPathSpec.Type, reason: String)

    /// A sentence that names the types involved.
    public var description: String {
        switch self {
        case .duplicateVersion(let version, let types):
            let names = types.map { "\($0)" }.joined(separator: " and ")
            let version = describeVersion(version)
            return "\(names) both have version \(version); each version in a chain must be unique."
        case .typeAppearsTwice(let type, let chain):
            let names = (chain.map { "\($0)" } + ["\(type)"]).joined(separator: " → ")
            return "\(type) appears twice in its version chain (\(names)); "
                + "PreviousVersion must lead to NothingEarlier."
        case .tooLong(let type, let count):
            return "The version chain of \(type) has more than \(count - 1) types without reaching NothingEarlier; "
                + "a generic type whose PreviousVersion is itself with another argument never ends. "
                + "End the chain with a type whose PreviousVersion is NothingEarlier."
        case .versionNotReadBack(let type, let read):
            return "\(type) writes version \(describeVersion(type.version)) through \(type.versionSpecType), "
                + "but a document holding it reads back as version \(describeVersion(read)); "
                + "keyPathToVersion must lead to the value init(withVersion:) sets."
        case .unsupportedSpec(let spec, let reason):
            return "\(spec) cannot hold a version: it \(reason)."
        }
    }

    /// Two problems are equal when they are the same case with the same version and types.
    public static func == (lhs: VersionChainProblem, rhs: VersionChainProblem) -> Bool {
        switch (lhs, rhs) {
        case (.duplicateVersion(let v1, let t1), .duplicateVersion(let v2, let t2)):
            return v1 == v2 && t1.elementsEqual(t2, by: ==)
        case (.typeAppearsTwice(let t1, let c1), .typeAppearsTwice(let t2, let c2)):
            return t1 == t2 && c1.elementsEqual(c2, by: ==)
        case (.versionNotReadBack(let t1, let r1), .versionNotReadBack(let t2, let r2)):
            return t1 == t2 && r1 == r2
        case (.tooLong(let t1, let c1), .tooLong(let t2, let c2)):
            return t1 == t2 && c1 == c2
        case (.unsupportedSpec(let s1, let r1), .unsupportedSpec(let s2, let r2)):
            return s1 == s2 && r1 == r2
        default:
            return false
        }
    }
}

extension VersionedCodable {
    /// Throws if this type's version chain repeats a version or a type, or if a version one of
    /// its types writes does not read back as that version.
    ///
    /// Call it from a unit test for each of your versioned types. Decoding performs the first
    /// two checks, so a bad chain never decodes silently wrong, but a test finds it before a
    /// document does. The third writes each type's spec with the type's version, as JSON, and
    /// reads the version back through this type, as a versioned decode would: a custom spec
    /// whose ``VersionPathSpec/keyPathToVersion`` does not lead to what its
    /// ``VersionPathSpec/init(withVersion:)`` sets would otherwise write documents that read
    /// as another version. A version that declares older builds may read it (see
    /// ``VersionedCodable/compatibility``) must also keep the version as an integer, beside which
    /// they are named, or every encode of it throws.
    ///
    /// - Throws: ``VersionedDecodingError/invalidVersionChain(_:)`` naming the types involved.
    public static func validateVersionChain() throws {
        try VersionChain(for: Self.self).validate()
    }

    static var previousVersionType: any VersionedCodable.Type { PreviousVersion.self }
    static var versionSpecType: any VersionPathSpec.Type { VersionSpec.self }

    /// Whether an older version of the chain keeps its version with another spec, which the
    /// builds of that version ask first.
    ///
    /// Walked on each encode rather than looked up in the chain's cache, whose lock and copy cost
    /// more than the few steps of a common chain. A chain that never ends is walked as far as
    /// ``VersionChain/maximumLength``, as the chain is.
    static var olderVersionsUseAnotherSpec: Bool {
        var type = previousVersionType
        var steps = 1
        while type != NothingEarlier.self, steps < VersionChain.maximumLength {
            if type.versionSpecType != VersionSpec.self {
                return true
            }
            type = type.previousVersionType
            steps += 1
        }
        return false
    }
}

func describeVersion(_ version: Int?) -> String {
    version.map(String.init) ?? "nil"
}
