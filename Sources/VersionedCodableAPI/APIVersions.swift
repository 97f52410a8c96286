import Foundation
import VersionedCodable

/// The API versions a service serves, oldest first, and what each shows of its versioned types.
///
/// A service reads each request at the API version the client names, as the version of each
/// type that API version shows, migrated up to the current type; it answers in the same
/// versions, written down the chain; and it merges an older client's edit into the stored
/// value so that what the client cannot see is kept. The chains' own steps do the work: no
/// per-version code.
///
/// <!-- snippet: api-versions-handler -->
/// ```swift
/// let version: APIVersion
/// let merged: Contact
/// do {
///     version = try versions.version(named: headers["API-Version"])
///     merged = try versions.merge(Contact.self, from: body, at: version, into: stored)
/// } catch let error as APIVersionError {
///     return (error.httpStatus, Data(error.description.utf8))
/// } catch {
///     // A migration step's own error: the body holds a value the current type refuses.
///     return (422, Data("\(error)".utf8))
/// }
/// do {
///     try store.save(merged, ifStillAt: revision)
/// } catch is ContactStore.Conflict {
///     return (412, Data("The contact changed since it was read; read it again.".utf8))
/// } catch {
///     // The store's failure, not the client's: it may send the same request again later.
///     return (503, Data("The contacts store is unavailable; try again.".utf8))
/// }
/// do {
///     return (200, try versions.encode(merged, at: version))
/// } catch {
///     // Stored, but not showable at the client's version (406): it reads it at a newer one.
///     return ((error as? APIVersionError)?.httpStatus ?? 500, Data("\(error)".utf8))
/// }
/// ```
///
/// Bodies are JSON. Every call may run from many tasks at once.
public struct APIVersions: @unchecked Sendable {
    // `@unchecked` for the coders, which are never changed after `init`: Foundation's coders
    // may be shared by concurrent calls as long as nobody changes their settings.

    /// What to do with a request body's fields that the version its API version shows does not
    /// have.
    public enum UnknownFieldPolicy: Sendable {
        /// Throw ``APIVersionError/unknownFields(_:type:apiVersion:)``: a client that sends a
        /// field expects it kept, and its version has nowhere to keep it.
        case refuse
        /// Decode the body as plain `Codable` does, without the fields.
        case ignore
    }

    /// The API versions, oldest first.
    public let versions: [APIVersion]

    /// The version a request that names none is read and answered at.
    public let defaultVersion: APIVersion

    /// What happens to fields a request's version does not have.
    public let unknownFields: UnknownFieldPolicy

    /// Whether responses carry the version of their root type, as `encode(versioned:)` writes
    /// it. Requests may carry it or not.
    public let versionKeyInResponses: Bool

    /// The newest API version.
    public var newest: APIVersion { versions[versions.count - 1] }

    /// How a merge tells which stored element an element of an edited array is.
    public let elementIdentity: ElementIdentity

    /// The service's coders for each API version, by name.
    private let coders: [String: Coders]
    /// The coders the merge compares current values with: plain key and date strategies, so
    /// that nothing is rounded, and the service's `userInfo` and float strategies.
    let mergeEncoder: JSONEncoder
    let mergeDecoder: JSONDecoder

    /// Declares the API versions a service serves.
    ///
    /// - Parameters:
    ///   - versions: The API versions, oldest first, each listing the version of the types
    ///     whose shape it shows older than current.
    ///   - defaultVersion: The version a request that names none is read and answered at;
    ///     one of `versions`, named alone.
    ///   - unknownFields: What to do with a request body's fields that its version does not
    ///     have; ``UnknownFieldPolicy/refuse`` unless you say otherwise.
    ///   - versionKeyInResponses: Whether responses carry their root type's version; `true`
    ///     unless you say otherwise.
    ///   - elementIdentity: How a merge tells which stored element an edited array's element
    ///     is: by an `id` member unless you say otherwise.
    ///   - encoder: The settings (strategies, output formatting, `userInfo`) responses are
    ///     written with; copied, so later changes to it do not apply.
    ///   - decoder: The settings (strategies, `userInfo`) requests are read with; copied, so
    ///     later changes to it do not apply.
    /// - Throws: ``APIVersionError/invalidDeclaration(_:)`` when the list is empty, names a
    ///   version twice or in a form clients cannot send, lacks the default, lists a version
    ///   that is not in its type's chain, or shows a type older than an earlier API version did.
    public init(
        _ versions: [APIVersion],
        defaultVersion: APIVersion,
        unknownFields: UnknownFieldPolicy = .refuse,
        versionKeyInResponses: Bool = true,
        elementIdentity: ElementIdentity = .member("id"),
        encoder: JSONEncoder = JSONEncoder(),
        decoder: JSONDecoder = JSONDecoder()
    ) throws {
        try Self.validate(versions, defaultVersion: defaultVersion)
        self.versions = versions
        self.defaultVersion = versions.first { $0 == defaultVersion }!
        self.unknownFields = unknownFields
        self.versionKeyInResponses = versionKeyInResponses
        self.elementIdentity = elementIdentity
        var userInfo = encoder.userInfo
        userInfo[.versionsToWrite] = nil
        var coders: [String: Coders] = [:]
        let listed = Self.listedTypes(in: versions)
        for version in versions {
            coders[version.name] = Coders(
                version: version,
                listed: listed,
                encoder: encoder,
                decoder: decoder
            )
        }
        self.coders = coders
        mergeEncoder = JSONEncoder()
        mergeEncoder.outputFormatting = [.sortedKeys]
        mergeEncoder.userInfo = userInfo
        mergeEncoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "+Infinity",
            negativeInfinity: "-Infinity",
            nan: "NaN"
        )
        mergeDecoder = JSONDecoder()
        mergeDecoder.userInfo = decoder.userInfo
        mergeDecoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "+Infinity",
            negativeInfinity: "-Infinity",
            nan: "NaN"
        )
    }

    /// The API version a request names, or the default when it names none.
    ///
    /// - Parameter name: The request's version, as sent (a header's value, say); `nil` or
    ///   blank for none. Spaces around it are ignored.
    /// - Returns: The API version.
    /// - Throws: ``APIVersionError/unknownVersion(_:served:)`` or
    ///   ``APIVersionError/malformedVersion(_:served:)``, each naming the versions served.
    public func version(named name: String?) throws(APIVersionError) -> APIVersion {
        let trimmed = name?.trimmingCharacters(in: .whitespaces) ?? ""
        guard !trimmed.isEmpty else { return defaultVersion }
        if let version = versions.first(where: { $0.name == trimmed }) {
            return version
        }
        let served = versions.map(\.name)
        let form = NameForm(of: served)
        if !form.matches(trimmed) {
            throw .malformedVersion(trimmed, served: served)
        }
        throw .unknownVersion(trimmed, served: served)
    }

    /// Reads a request body sent at an API version as the current type: decoded as the version
    /// that API version shows, then migrated up the chain.
    ///
    /// The body need not carry its version; when it does, it must be the one its API version
    /// shows. The same holds for the `Versioned` parts inside it: each is read as the version
    /// the API version lists for its type, and a part that carries its version must carry that
    /// one. The echo of a response, which carries them, reads as well as a body built from a
    /// client's own model, which does not.
    ///
    /// - Parameters:
    ///   - type: The current version of the body's type.
    ///   - body: The request's JSON body.
    ///   - version: The request's API version, from ``version(named:)``.
    /// - Returns: The body as the current type.
    /// - Throws: ``APIVersionError/bodyVersionMismatch(type:apiVersion:expected:found:)``,
    ///   ``APIVersionError/undecodableBody(type:apiVersion:underlying:)`` and
    ///   ``APIVersionError/unknownFields(_:type:apiVersion:)``, and
    ///   ``APIVersionError/unknownVersion(_:served:)`` for a version that is not in the list; a
    ///   migration step's own error as it threw it.
    public func decode<Value: VersionedCodable>(
        _ type: Value.Type,
        from body: Data,
        at version: APIVersion
    ) throws -> Value {
        try read(type, from: body, at: declared(version), keepingSent: false).value
    }

    /// What a request body holds: the current value, and, when asked for or needed to find
    /// fields the version does not have, the body as its version writes it back.
    func read<Value: VersionedCodable>(
        _ type: Value.Type,
        from body: Data,
        at coders: Coders,
        keepingSent: Bool
    ) throws -> (value: Value, sent: JSONTree?) {
        let version = coders.version
        let shown = version.version(of: type)
        guard let historical = VersionChain(for: type).types.first(where: { $0.version == shown }) else {
            throw APIVersionError.invalidDeclaration(
                "\(name(of: type)) has no version \(versionText(shown)) to read API version \(version.name)'s bodies as"
            )
        }
        let sent: any VersionedCodable
        do {
            if coders.readsInOnePass(historical) {
                // The decoder's `versionsToRead` lists the type: a body without a version is
                // the version shown, and one with another version throws.
                sent = try coders.decoder.decode(versioned: historical, from: body)
            } else {
                try checkVersion(of: type, in: body, at: coders)
                sent = try coders.decoder.decode(historical, from: body)
            }
        } catch let error as APIVersionError {
            throw error
        } catch {
            // The one-pass decode refuses another version as any failure: say which it was.
            // The other path checked the version before it decoded.
            if coders.readsInOnePass(historical) {
                try checkVersion(of: type, in: body, at: coders)
            }
            throw APIVersionError.undecodableBody(type: name(of: type), apiVersion: version.name, underlying: error)
        }
        var sentTree: JSONTree?
        if unknownFields == .refuse || keepingSent {
            do {
                sentTree = try JSONTree(parsing: Array(coders.shownEncoder.encode(versioned: sent)))
            } catch {
                throw APIVersionError.undecodableBody(type: name(of: type), apiVersion: version.name, underlying: error)
            }
        }
        if unknownFields == .refuse, let sentTree {
            // Arrays are compared element by element; only where that finds fields is the
            // value asked which of its arrays are sets or dictionaries, written back in orders
            // of their own, whose elements are then compared with every element's fields.
            var unknown = try fieldsNotIn(sentTree, body: body, unordered: .none, type: type, version: version)
            if !unknown.isEmpty {
                let unordered = UnorderedPaths(of: sent, userInfo: mergeEncoder.userInfo)
                unknown = try fieldsNotIn(sentTree, body: body, unordered: unordered, type: type, version: version)
            }
            if !unknown.isEmpty {
                throw APIVersionError.unknownFields(unknown, type: name(of: type), apiVersion: version.name)
            }
        }
        return (try migrateUp(sent, to: type), sentTree)
    }

    /// Writes a value as an API version shows it: the value and its `Versioned` parts
    /// downgraded to the versions the API version lists, with the root's version when
    /// ``versionKeyInResponses`` is set.
    ///
    /// - Parameters:
    ///   - value: A value of the current version of its type.
    ///   - version: The API version to write it for.
    /// - Returns: The JSON body.
    /// - Throws: ``APIVersionError/cannotWrite(type:apiVersion:underlying:)`` naming the type
    ///   and the API version, when a step down has no downgrade or cannot represent the value;
    ///   never a different shape. ``APIVersionError/unknownVersion(_:served:)`` for a version
    ///   that is not in the list.
    public func encode(_ value: some VersionedCodable, at version: APIVersion) throws -> Data {
        let coders = try declared(version)
        let version = coders.version
        do {
            if versionKeyInResponses {
                return try coders.encoder.encode(versioned: value)
            }
            return try coders.encoder.encode(downgrade(value, to: version.version(of: type(of: value))))
        } catch let error as VersionedEncodingError {
            throw APIVersionError.cannotWrite(
                type: name(of: type(of: value)),
                apiVersion: version.name,
                underlying: error
            )
        } catch EncodingError.invalidValue(let part, let context)
            where context.underlyingError is VersionedEncodingError
        {
            // A `Versioned` part that cannot be written as the version listed: the error says
            // where it is.
            throw APIVersionError.cannotWrite(
                type: name(of: type(of: value)),
                apiVersion: version.name,
                underlying: EncodingError.invalidValue(part, context)
            )
        }
    }

    /// Throws ``APIVersionError/bodyVersionMismatch(type:apiVersion:expected:found:)`` when the
    /// body carries another version than the one its API version shows.
    private func checkVersion(
        of type: any VersionedCodable.Type,
        in body: Data,
        at coders: Coders
    ) throws(APIVersionError) {
        let shown = coders.version.version(of: type)
        if let found = try? coders.decoder.storedVersion(of: type, from: body), found != shown {
            throw .bodyVersionMismatch(
                type: name(of: type),
                apiVersion: coders.version.name,
                expected: shown,
                found: found
            )
        }
    }

    /// The declared API version of the same name, with its coders: a name alone stands for it,
    /// and a version that is not in the list is refused as a request naming it would be.
    func declared(_ version: APIVersion) throws(APIVersionError) -> Coders {
        guard let coders = coders[version.name] else {
            throw .unknownVersion(version.name, served: versions.map(\.name))
        }
        return coders
    }

    func name(of type: any VersionedCodable.Type) -> String {
        String(describing: type)
    }

    /// The body's keys that the version it was read as does not write back (`written`): the
    /// fields it does not have. A `null` counts as absent, as a plain optional field reads it.
    private func fieldsNotIn(
        _ written: JSONTree,
        body: Data,
        unordered: UnorderedPaths,
        type: any VersionedCodable.Type,
        version: APIVersion
    ) throws -> [String] {
        let sentTree: JSONTree
        do {
            // A byte order mark, which the decoder skips, is no field.
            let bytes = Array(body)
            sentTree = try JSONTree(
                parsing: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
            )
        } catch {
            throw APIVersionError.undecodableBody(type: name(of: type), apiVersion: version.name, underlying: error)
        }
        var unknown: [String] = []
        collectUnknown(sentTree, known: written, path: "", pattern: "", unordered: unordered, into: &unknown)
        return unknown
    }

    private func collectUnknown(
        _ sent: JSONTree,
        known: JSONTree,
        path: String,
        pattern: String,
        unordered: UnorderedPaths,
        into unknown: inout [String]
    ) {
        switch (sent, known) {
        case (.object(let members), .object(let knownMembers)):
            let index = MemberIndex(knownMembers)
            for member in members {
                let memberPath = path.isEmpty ? member.name : path + "." + member.name
                if let knownValue = index.value(member.name, in: knownMembers) {
                    collectUnknown(
                        member.value,
                        known: knownValue,
                        path: memberPath,
                        pattern: pattern.isEmpty ? member.name : pattern + "." + member.name,
                        unordered: unordered,
                        into: &unknown
                    )
                } else if !member.value.isNull {
                    unknown.append(memberPath)
                }
            }
        case (.array(let elements), .array(let knownElements)):
            // An array is written back in the order it was read, each element as the element
            // it was sent as; a set or a dictionary in an order of its own, so its elements are
            // compared with every field any element was written back with.
            if unordered.kind(at: pattern) == nil, elements.count == knownElements.count {
                for (index, element) in elements.enumerated() {
                    collectUnknown(
                        element,
                        known: knownElements[index],
                        path: "\(path)[\(index)]",
                        pattern: pattern,
                        unordered: unordered,
                        into: &unknown
                    )
                }
                break
            }
            guard let shape = knownElements.reduce(nil, { JSONTree.union($0, $1) }) else { break }
            for (index, element) in elements.enumerated() {
                collectUnknown(
                    element,
                    known: shape,
                    path: "\(path)[\(index)]",
                    pattern: pattern,
                    unordered: unordered,
                    into: &unknown
                )
            }
        default:
            break
        }
    }
}

/// An API version with the coders that read and write at it.
struct Coders {
    let version: APIVersion
    /// Writes responses: the service's settings, its `userInfo` listing the versions the API
    /// version shows.
    let encoder: JSONEncoder
    /// The same with sorted keys: what the merge brings values down with, so that the
    /// client's view is the one the service's strategies (dates, keys) give it, and compares
    /// views with.
    let shownEncoder: JSONEncoder
    /// Reads requests: the service's settings, its `userInfo` listing the versions the API
    /// version shows, of every type the API versions list and of the version types behind
    /// them, as the versions to read where a document or part carries none.
    let decoder: JSONDecoder
    /// The version types `decoder` reads at the version shown, whatever the body says.
    private let listedVersionTypes: Set<ObjectIdentifier>

    init(
        version: APIVersion,
        listed: [ShownType],
        encoder: JSONEncoder,
        decoder: JSONDecoder
    ) {
        self.version = version
        self.encoder = Self.copy(encoder, versions: version.versionsToWrite)
        shownEncoder = Self.copy(encoder, versions: version.versionsToWrite)
        shownEncoder.outputFormatting.insert(.sortedKeys)
        let reader = JSONDecoder()
        reader.dateDecodingStrategy = decoder.dateDecodingStrategy
        reader.dataDecodingStrategy = decoder.dataDecodingStrategy
        reader.nonConformingFloatDecodingStrategy = decoder.nonConformingFloatDecodingStrategy
        reader.keyDecodingStrategy = decoder.keyDecodingStrategy
        if #available(macOS 12, iOS 15, tvOS 15, watchOS 8, *) {
            reader.allowsJSON5 = decoder.allowsJSON5
            reader.assumesTopLevelDictionary = decoder.assumesTopLevelDictionary
        }
        var toRead = version.versionsToWrite
        var listedVersionTypes: Set<ObjectIdentifier> = []
        for type in listed {
            let shown = version.shownVersion(of: type)
            toRead = Self.reading(type.chain.newest, as: shown, in: toRead)
            if let historical = type.chain.types.first(where: { $0.version == shown }) {
                toRead = Self.reading(historical, as: shown, in: toRead)
                listedVersionTypes.insert(ObjectIdentifier(historical))
            }
        }
        reader.userInfo = decoder.userInfo
        reader.userInfo[.versionsToRead] = toRead
        self.decoder = reader
        self.listedVersionTypes = listedVersionTypes
    }

    /// `key` as the service's key strategy writes a field's key: written once, as the one field
    /// of an object.
    func shownKey(_ key: String) -> String {
        if case .useDefaultKeys = shownEncoder.keyEncodingStrategy {
            return key
        }
        guard let data = try? shownEncoder.encode(OneField(key: key)),
            case .object(let members)? = try? JSONTree(parsing: Array(data)), let written = members.first
        else { return key }
        return written.name
    }

    /// Whether `decoder` reads `type` at the version shown when a body carries no version, and
    /// refuses one that carries another.
    func readsInOnePass(_ type: any VersionedCodable.Type) -> Bool {
        listedVersionTypes.contains(ObjectIdentifier(type))
    }

    private static func reading<Value: VersionedCodable>(
        _ type: Value.Type,
        as version: Int?,
        in list: VersionsToWrite
    ) -> VersionsToWrite {
        list.writing(type, asVersion: version)
    }

    /// The service's encoder with the versions an API version shows in place of any list of
    /// its own.
    private static func copy(_ encoder: JSONEncoder, versions: VersionsToWrite) -> JSONEncoder {
        let copy = JSONEncoder()
        copy.outputFormatting = encoder.outputFormatting
        copy.dateEncodingStrategy = encoder.dateEncodingStrategy
        copy.dataEncodingStrategy = encoder.dataEncodingStrategy
        copy.nonConformingFloatEncodingStrategy = encoder.nonConformingFloatEncodingStrategy
        copy.keyEncodingStrategy = encoder.keyEncodingStrategy
        copy.userInfo = encoder.userInfo
        copy.userInfo[.versionsToWrite] = versions
        return copy
    }
}

/// A value of the current type, from a value of a version in its chain, through each step's
/// `init(from:)`.
func migrateUp<Target: VersionedCodable>(_ value: any VersionedCodable, to target: Target.Type) throws -> Target {
    if let reached = value as? Target {
        return reached
    }
    precondition(Target.PreviousVersion.self != NothingEarlier.self, "\(type(of: value)) is not in the chain")
    return try Target(from: migrateUp(value, to: Target.PreviousVersion.self))
}

/// A value as an older version in its chain, through each step's `downgraded()`.
func downgrade<Value: VersionedCodable>(_ value: Value, to version: Int?) throws -> any VersionedCodable {
    if Value.version == version {
        return value
    }
    guard Value.PreviousVersion.self != NothingEarlier.self else {
        throw VersionedEncodingError.versionNotInChain(version, chain: VersionChain(for: Value.self))
    }
    return try downgrade(value.downgraded(), to: version)
}

/// An object with one field named `key`, to see what a key strategy makes of the name.
private struct OneField: Encodable {
    let key: String

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(0, forKey: Key(stringValue: key))
    }
}
