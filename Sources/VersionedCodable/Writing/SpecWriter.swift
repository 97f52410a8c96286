import Foundation

/// Writes a versioned value with its spec merged in: the encoder the value writes its root
/// into.
///
/// Only the objects where the spec writes are watched (the root, and `_metadata` under a
/// `_metadata.version` spec); everything else goes straight to the real encoder. At each
/// watched object, a key the spec owns is checked as the type writes it: an integer (or
/// nothing) where the version goes mirrors the version and gives way to it, anything else
/// there would be lost and is refused. When the type is done with an object, the spec's part of
/// it is written into the same encoder or container the type used, after the type's keys.
final class SpecWriter: Encoder {
    /// What the type wrote that the spec's part cannot be merged with.
    enum Finding {
        /// A value of the type's own where the spec writes one (the version, when `atVersion`).
        case clash(path: [String], atVersion: Bool)
        /// A dictionary entry under a key the spec writes.
        case entry(path: [String])
        /// Something other than a keyed object where the spec needs one.
        case notAnObject(path: [String])
    }

    /// Thrown where a finding is noted, to stop the type's encoding there.
    struct Refused: Error {}

    let base: any Encoder
    /// What the spec writes in this encode, as it wrote it; for the default spec, which writes
    /// only ``version`` at the root, a shared place that stands for it.
    let root: SpecPlace
    /// Whether the spec is the default one, whose one value is the version at the root.
    let isDefault: Bool
    let version: Int?
    /// The versioned type being written, whose chain gives the probe of the version's place
    /// its other version.
    let valueType: any VersionedCodable.Type
    /// The oldest versions that may read and write the document, written beside the version
    /// when they are older than it.
    var olderBuilds: (readableFrom: Int, writableFrom: Int)?
    /// The fields of a newer document that this build did not read, written back at the root.
    var unknownFields: [(key: String, value: UnknownValue)] = []
    private(set) var finding: Finding?
    /// Whether the spec's part of the root is written, and of which other objects: the root
    /// apart, so that the common encode allocates no list.
    private var rootIsWritten = false
    private var written: [ObjectIdentifier] = []
    /// The objects the type opened with `nestedContainer` or `superEncoder`, and what it opened
    /// them with: the spec's part is written there when the enclosing object is done.
    private var held: [(place: SpecPlace, target: HeldObject)] = []

    enum HeldObject {
        case container(KeyedEncodingContainer<PathKey>)
        case encoder(any Encoder)
    }

    init(base: any Encoder, root: SpecPlace?, version: Int?, valueType: any VersionedCodable.Type) {
        self.base = base
        self.root = root ?? .versionAtRoot
        self.isDefault = root == nil
        self.version = version
        self.valueType = valueType
    }

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        container(of: base, at: root, keyedBy: type)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        PlaceEncoder(base: base, place: root, writer: self).unkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        PlaceEncoder(base: base, place: root, writer: self).singleValueContainer()
    }

    /// `encoder`'s keyed container at `place`, watched if its key type can write a key the spec
    /// owns there.
    func container<Key: CodingKey>(
        of encoder: any Encoder,
        at place: SpecPlace,
        keyedBy type: Key.Type
    ) -> KeyedEncodingContainer<Key> {
        guard
            place.canBeWritten(with: Key.self) || declaration?.path == place.path
                || (place === root && !unknownFields.isEmpty)
        else {
            return encoder.container(keyedBy: type)
        }
        return KeyedEncodingContainer(
            PlaceEncodingContainer<Key>(base: encoder.container(keyedBy: PathKey.self), place: place, writer: self)
        )
    }

    /// What the spec writes at `key` of `place` in this encode, if anything: the keys beside the
    /// version that say which older builds may read and write among them, when they are written.
    func role(of key: String, at place: SpecPlace) -> SpecPlace.Entry? {
        if !unknownFields.isEmpty, place === root {
            // A key the type writes wins over a kept one (a field it writes but does not read).
            unknownFields.removeAll { $0.key == key }
        }
        if isDefault {
            return place === root && key == "version" ? .value(version) : declarationRole(of: key, at: place)
        }
        return place.entry(key) ?? declarationRole(of: key, at: place)
    }

    private func declarationRole(of key: String, at place: SpecPlace) -> SpecPlace.Entry? {
        guard let olderBuilds, let declaration, declaration.path == place.path else {
            return nil
        }
        switch key {
        case declaration.readable: return .value(olderBuilds.readableFrom)
        case declaration.writable: return .value(olderBuilds.writableFrom)
        default: return nil
        }
    }

    /// Whether the spec's `value` at `path` gives way to what the type writes there: a `null`
    /// the spec writes anywhere but at the version holds nothing (a spec that writes
    /// `"_metadata": null` for the `nil` version), so the type's value is written instead.
    func givesWay(_ value: any Encodable, at path: [String]) -> Bool {
        guard (value as? any NilRepresentable)?.isNil == true, !isVersion(path) else {
            return false
        }
        gaveWay.append(path)
        return true
    }

    /// The paths where the spec's `null` gave way to the type's value.
    private var gaveWay: [[String]] = []

    /// The keys from the root to the integer the spec wrote that it reads back as the version:
    /// the default spec's `version`, or, for another spec, what asking it finds (see
    /// ``VersionPathSpec/versionPath(in:marker:)``); `nil` when no integer it wrote is the version.
    /// Asked only when a type writes where the spec does, or the document names older builds.
    private(set) lazy var versionPath: [String]? = {
        if isDefault {
            return ["version"]
        }
        let chain = VersionChain(for: valueType)
        let marker =
            chain.versions.lazy.compactMap { $0 }.first { $0 != self.version }
            ?? (version.map { $0 == .max ? $0 - 1 : $0 + 1 } ?? 1)
        return valueType.versionSpecType.versionPath(in: root, marker: marker, userInfo: userInfo)
    }()

    /// Whether the spec writes the version at `path`.
    func isVersion(_ path: [String]) -> Bool {
        path == versionPath
    }

    /// Where the oldest versions that may read and write the document are written, when they
    /// are: beside the version, under its key with `ReadableFrom` and `WritableFrom` added.
    private var declaration: (path: [String], readable: String, writable: String)? {
        guard olderBuilds != nil, let path = versionPath else {
            return nil
        }
        let keys = declarationKeys(besideVersionKey: path.last!)
        return (Array(path.dropLast()), keys.readable, keys.writable)
    }

    /// Notes the first finding; the encode throws it once the type is done.
    func note(_ finding: Finding) {
        if self.finding == nil {
            self.finding = finding
        }
    }

    /// Notes `finding` and returns the error that stops the type's encoding.
    func refuse(_ finding: Finding) -> any Error {
        note(finding)
        return Refused()
    }

    func hold(_ place: SpecPlace, _ target: HeldObject) {
        held.append((place, target))
    }

    private func isWritten(_ place: SpecPlace) -> Bool {
        place === root ? rootIsWritten : written.contains(ObjectIdentifier(place))
    }

    /// What the type writes at `place`, made ready to have the spec's part merged in.
    func following<T: Encodable>(_ value: T, at place: SpecPlace) throws -> any Encodable {
        if let dictionary = value as? any DictionaryAtPlaceWriting {
            return try dictionary.merging(place, by: self)
        }
        if isCodedSpecially(T.self) {
            throw refuse(.notAnObject(path: place.path))
        }
        return Following(value: value, place: place, writer: self)
    }

    /// Writes the spec's part of `place`, and of the objects below it that the type opened,
    /// into `encoder`, which stands at `place`: once the type is done with it.
    func finish(_ place: SpecPlace, into encoder: any Encoder) throws {
        guard finding == nil else {
            return
        }
        if !held.isEmpty {
            try finishHeld(below: place)
        }
        guard !isWritten(place), hasValues(at: place) else {
            return
        }
        markWritten(place)
        var container = encoder.container(keyedBy: PathKey.self)
        try write(place, into: &container)
    }

    /// Writes the spec's part of the objects at and below `place` that the type opened and
    /// held: innermost first, so that an object opened inside another is written into its own
    /// container before the outer one could open it again.
    private func finishHeld(below place: SpecPlace) throws {
        for (heldPlace, target) in held.reversed()
        where heldPlace.path.starts(with: place.path) && !isWritten(heldPlace) {
            markWritten(heldPlace)
            switch target {
            case .container(var container):
                try write(heldPlace, into: &container)
            case .encoder(let encoder):
                var container = encoder.container(keyedBy: PathKey.self)
                try write(heldPlace, into: &container)
            }
        }
        held.removeAll { $0.place.path.starts(with: place.path) }
    }

    /// Whether the spec writes anything at `place`: an empty object it writes is written too,
    /// as a reader of its own (a 1.2 build whose spec needs the object) expects it.
    private func hasValues(at place: SpecPlace) -> Bool {
        if isDefault, olderBuilds == nil, unknownFields.isEmpty {
            return version != nil
        }
        return !entries(at: place).isEmpty
    }

    /// What the spec writes at `place`, in the order it writes it, and beside the version the
    /// oldest versions that may read and write the document, and at the root the fields of a
    /// newer document that this build did not read.
    func entries(at place: SpecPlace) -> [(key: String, entry: SpecPlace.Entry)] {
        var entries: [(key: String, entry: SpecPlace.Entry)] =
            isDefault ? (place === root ? version.map { [("version", .value($0))] } ?? [] : []) : place.entries
        if let olderBuilds, let declaration, place.path == declaration.path {
            entries += [(declaration.readable, .value(olderBuilds.readableFrom))]
            if olderBuilds.writableFrom != version {
                entries += [(declaration.writable, .value(olderBuilds.writableFrom))]
            }
        }
        if place === root {
            // First, so that the spec's own values win where a key strategy makes a kept key
            // one of them ("Version" under `.convertToSnakeCase`).
            entries = unknownFields.map { ($0.key, .value($0.value)) } + entries
        }
        return entries
    }

    /// Writes the spec's part of `place` into `container`, which stands at it, with the objects
    /// below that nothing else has written.
    func write(_ place: SpecPlace, into container: inout KeyedEncodingContainer<PathKey>) throws {
        if isDefault, let version, olderBuilds == nil, unknownFields.isEmpty {
            // The default spec, on every encode: its one value, without making a list of it.
            return try container.encode(version, forKey: PathKey.version)
        }
        for (key, entry) in entries(at: place) {
            switch entry {
            case .value(let value):
                if gaveWay.isEmpty || !gaveWay.contains(place.path + [key]) {
                    try container.encode(value, forKey: PathKey(key))
                }
            case .object(let child):
                guard !isWritten(child) else {
                    continue
                }
                markWritten(child)
                var nested = container.nestedContainer(keyedBy: PathKey.self, forKey: PathKey(key))
                try write(child, into: &nested)
            }
        }
    }

    /// Marks the spec's part of `place` as written, by this writer or by a dictionary that carries it.
    func markWritten(_ place: SpecPlace) {
        if place === root {
            rootIsWritten = true
        } else {
            written.append(ObjectIdentifier(place))
        }
    }

    /// The error for what was found, if anything.
    ///
    /// At the root of a document it is 1.2's case itself, so that `catch` clauses keep
    /// matching. A versioned part inside a document gets an `EncodingError.invalidValue` that
    /// names the part's type, its coding path and the field, with the versioning error as its
    /// `underlyingError`.
    func error<Value: VersionedCodable>(writing value: Value) -> (any Error)? {
        guard let finding else {
            return nil
        }
        let partPath = base.codingPath
        let part = "\(Value.self) at \(describePath(partPath))"
        let spec = "its VersionPathSpec (\(Value.VersionSpec.self))"
        let error: VersionedEncodingError
        let description: String
        switch finding {
        case .clash(let path, let atVersion):
            error = .typeHasClashingVersionField
            description =
                "\(part) writes its own value at \(describeField(path)), where \(spec) "
                + (atVersion ? "puts the version" : "writes another value")
                + ". Rename that field or choose another version path; what the spec writes never "
                + "overwrites the type's values silently."
        case .entry(let path):
            error = .typeHasClashingVersionField
            description =
                "\(part) writes a dictionary with an entry at \(describeField(path)), where \(spec) "
                + "writes; the entry would be lost. A mirror of the version is a property the type "
                + "declares, never a dictionary entry."
        case .notAnObject(let path) where path.isEmpty && partPath.isEmpty:
            return VersionedEncodingError.cannotHoldVersion(Value.self, version: version)
        case .notAnObject(let path):
            error = .versionLocationNotAnObject(codingPath: partPath.map(\.stringValue) + path)
            description =
                "\(part) writes a single value, `nil` or an array at \(describeField(path)), which "
                + "cannot hold the version: the path of \(spec) needs a keyed object there."
        }
        guard !partPath.isEmpty else {
            return error
        }
        return EncodingError.invalidValue(
            value,
            EncodingError.Context(codingPath: partPath, debugDescription: description, underlyingError: error)
        )
    }

    private func describeField(_ path: [String]) -> String {
        path.isEmpty ? "its root" : "`\(path.joined(separator: "."))`"
    }
}

/// The encoder of an object below the root where the spec writes, or of a value the type
/// forwards its encoding to.
struct PlaceEncoder: Encoder {
    let base: any Encoder
    let place: SpecPlace
    let writer: SpecWriter

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        writer.container(of: base, at: place, keyedBy: type)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        writer.note(.notAnObject(path: place.path))
        return base.unkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        PlaceSingleValueEncodingContainer(base: base.singleValueContainer(), place: place, writer: writer)
    }
}

/// A value the type writes where the spec writes an object: its encoding is watched there, and
/// the spec's part is merged in while its encoder is still open.
///
/// Merging there, rather than by opening the same object again from its parent afterwards, is
/// what lets coders that build each object when its encoder is released (Yams, XMLCoder) keep
/// both the type's fields and the spec's.
struct Following<Value: Encodable>: Encodable {
    let value: Value
    let place: SpecPlace
    let writer: SpecWriter

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: PlaceEncoder(base: encoder, place: place, writer: writer))
        try writer.finish(place, into: encoder)
    }
}

/// The single-value container of an object where the spec writes. A value written through it
/// stands at that object, so it is followed (a type that forwards its encoding to a nested
/// struct); a single value there cannot hold what the spec writes, and is refused.
struct PlaceSingleValueEncodingContainer: SingleValueEncodingContainer {
    var base: any SingleValueEncodingContainer
    let place: SpecPlace
    let writer: SpecWriter
    var codingPath: [any CodingKey] { base.codingPath }

    private func refused() -> any Error { writer.refuse(.notAnObject(path: place.path)) }

    mutating func encodeNil() throws {
        // A `null` below the root (an optional parent that is `nil`) gives way to the spec's
        // object; at the root of a versioned value it leaves nowhere to put the version.
        if place.path.isEmpty {
            throw refused()
        }
    }
    mutating func encode<T: Encodable>(_ value: T) throws {
        if isSingleValue(T.self) {
            throw refused()
        }
        try base.encode(try writer.following(value, at: place))
    }
}
