import Foundation
import VersionedCodable

/// The schema of a `Versioned` part: what its reader accepts.
///
/// A part's reader reads the version stored with the part and decodes that version's type, so a
/// stored document may hold the part at any version of its chain: the schema is `anyOf` the
/// schemas of every version, each with its own version constant at the place its spec writes it.
/// A version newer than the chain's newest is refused, unless the document declares that builds
/// of the newest version may read it (forward compatibility); then it is read as the newest
/// version, and the keys that the newest version does not read are kept, at its root and in the
/// spec's objects on the way to the version. The last branch of the `anyOf` says that: the
/// newest version's schema with a larger version, the declaration beside it, and those objects
/// open to other keys.
struct VersionedPartSchema {
    /// The part's definition: `Versioned.Attachment`, which every use of the part refers to.
    let name: String
    /// The definitions of the chain's versions, newest first.
    var versionNames: [String]
    /// The definition of the newest version.
    let newestName: String
    /// Where a newer document's version and declaration are, when the chain may read one.
    let newer: NewerDocumentPlace?

    /// The name of the part's definition for a chain whose newest version is named `newest`.
    static func definitionName(newest: String) -> String {
        "Versioned." + newest
    }

    /// The part's schema, built from the definitions recorded for its versions.
    func schema(definitions: [String: JSONSchema]) -> JSONSchema {
        var options = versionNames.map(JSONSchema.reference(to:))
        if let newer, let newest = definitions[newestName] {
            options.append(newer.schema(from: newest, definitions: definitions))
        }
        var schema = JSONSchema()
        schema.anyOf = options
        schema.description =
            "a Versioned part: any version of its chain"
            + (newer.map { ", or a newer version that declares that version \($0.newest) may read it" } ?? "")
        return schema
    }
}

/// Where a document newer than a chain's newest version keeps its version and the declaration
/// of which older builds may read it, as the library writes them.
struct NewerDocumentPlace {
    /// The chain's newest version.
    let newest: Int
    /// The keys from the root to the version.
    let versionPath: [String]
    /// The key beside the version that names the oldest version that may read the document.
    let readableKey: String
    /// The key beside the version that names the oldest version that may write it.
    let writableKey: String

    /// Finds the place by having the library write a version one newer than `Newest` that
    /// declares older builds may read it, and looking for the keys it adds beside the version:
    /// the library's own rule, asked rather than spelled again here.
    ///
    /// - Returns: `nil` when `Newest` has no version, or its spec writes the version nowhere
    ///   JSON shows, or the library writes no declaration for it: then no newer document is
    ///   read.
    static func find<Newest: VersionedCodable>(for type: Newest.Type) -> NewerDocumentPlace? {
        guard let newest = Newest.version, newest < Int.max, let path = VersionPlace.path(of: Newest.self),
            !path.isEmpty
        else {
            return nil
        }
        let specKeys = keys(beside: path, in: try? JSONEncoder().encode(Newest.VersionSpec(withVersion: newest + 1)))
        let encoder = JSONEncoder()
        let readOnly = keys(
            beside: path,
            in: try? encoder.encode(versioned: NewerVersionProbe<Newest, ReadOnly>())
        )
        let compatible = keys(
            beside: path,
            in: try? encoder.encode(versioned: NewerVersionProbe<Newest, ReadWrite>())
        )
        guard let specKeys, let readOnly, let compatible else { return nil }
        // Read only: the document names the oldest reader and no writer, since only itself
        // may write it; compatible: both.
        let readable = readOnly.subtracting(specKeys)
        let writable = compatible.subtracting(specKeys).subtracting(readable)
        guard readable.count == 1, writable.count == 1 else { return nil }
        return NewerDocumentPlace(
            newest: newest,
            versionPath: path,
            readableKey: readable.first!,
            writableKey: writable.first!
        )
    }

    /// The keys of the object that holds the version in a JSON document, or `nil` when the
    /// document could not be written or has no such object.
    private static func keys(beside path: [String], in data: Data?) -> Set<String>? {
        guard let data, var object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return nil
        }
        for key in path.dropLast() {
            guard let inner = object[key] as? [String: Any] else { return nil }
            object = inner
        }
        return Set(object.keys)
    }

    /// The schema of a newer document read as `newest`, the newest version's schema, whose
    /// references point into `definitions`: its version and declaration where the spec writes
    /// the version, and open to other keys at its root and in the spec's objects on the way,
    /// which the reader keeps.
    func schema(from newestSchema: JSONSchema, definitions: [String: JSONSchema]) -> JSONSchema {
        var schema = newestSchema
        schema.title = nil
        schema.description = [
            newestSchema.description,
            "a newer version than \(newest) that declares that version \(newest) may read it: "
                + "read as version \(newest), keeping the keys that version \(newest) does not read",
        ].compactMap { $0 }.joined(separator: "\n")
        // Each within an `Int`, as the reader reads them.
        var version = JSONSchema(type: "integer")
        version.minimum = Decimal(newest + 1)
        version.maximum = Decimal(Int.max)
        var readable = JSONSchema(type: "integer")
        readable.minimum = Decimal(Int.min)
        readable.maximum = Decimal(newest)
        var writable = JSONSchema(type: "integer")
        writable.minimum = Decimal(Int.min)
        writable.maximum = Decimal(Int.max)
        schema.changeObjects(along: versionPath.dropLast(), definitions: definitions) { object, key, _ in
            // Every object on the way is open, but the spec's object alone, an optional's `nil`:
            // a key besides the spec's makes it the type's object, read as the type reads it.
            if object.additionalProperties?.boolean == false, object.description != JSONSchema.specsAloneDescription {
                object.additionalProperties = nil
            }
            guard key == nil else {
                return
            }
            var properties = object.properties ?? [:]
            properties[versionPath.last!] = version
            properties[readableKey] = readable
            properties[writableKey] = writable.allowingNull
            object.properties = properties
            object.require(versionPath.last!, readableKey)
        }
        return schema
    }

    /// The schema of a version that declares which older builds may read its documents, from
    /// the schema its code reads: the declaration beside the version, which the library writes
    /// when it writes that version as the newest and hides from the type when it reads one, is
    /// allowed there. The oldest reader is at least the `minimum` of the readable key; the oldest
    /// writer is the `minimum` of the writable key, which is allowed only when builds older than
    /// the version may write it back. The breaking-change check compares the version's fields
    /// with theirs.
    func declaring(
        _ schema: JSONSchema,
        atVersion version: Int,
        olderBuilds: (readableFrom: Int, writableFrom: Int)
    ) -> JSONSchema {
        var schema = schema
        var readable = JSONSchema(type: "integer")
        readable.minimum = Decimal(olderBuilds.readableFrom)
        readable.maximum = Decimal(version)
        var writable = JSONSchema(type: "integer")
        writable.minimum = Decimal(olderBuilds.writableFrom)
        writable.maximum = Decimal(version - 1)
        schema.changeObjects(along: versionPath.dropLast(), definitions: [:]) { object, key, _ in
            guard key == nil else {
                return
            }
            var properties = object.properties ?? [:]
            properties[readableKey] = readable
            if olderBuilds.writableFrom < version {
                properties[writableKey] = writable
            }
            object.properties = properties
        }
        return schema
    }
}

/// How a probe declares older builds may use it.
private protocol ProbeCompatibility {
    static var compatibility: ForwardCompatibility { get }
}

private enum ReadOnly: ProbeCompatibility {
    static var compatibility: ForwardCompatibility { .readOnlyCompatible }
}

private enum ReadWrite: ProbeCompatibility {
    static var compatibility: ForwardCompatibility { .compatible }
}

/// A version one newer than `Older`, with no fields, which builds of `Older` may read: written
/// only to see where the library puts the declaration of a newer document.
private struct NewerVersionProbe<Older: VersionedCodable, Declared: ProbeCompatibility>: VersionedCodable {
    static var version: Int? { Older.version.map { $0 + 1 } }
    typealias PreviousVersion = Older
    typealias VersionSpec = Older.VersionSpec
    static var compatibility: ForwardCompatibility { Declared.compatibility }

    init() {}

    init(from old: Older) throws {}
}
