import Foundation
import VersionedCodable

/// The JSON Schema of one version of a versioned type.
public struct VersionSchema: Hashable, Sendable {
    /// The name of the chain's newest type, which names the chain: `Poem`.
    public let typeName: String
    /// The version the schema describes, or `nil` for documents from before versioning.
    public let version: Int?
    /// The schema of a whole document of this version.
    public let schema: JSONSchema

    /// Creates a version's schema.
    ///
    /// - Parameters:
    ///   - typeName: The name of the chain's newest type.
    ///   - version: The version the schema describes.
    ///   - schema: The schema of a document of that version.
    public init(typeName: String, version: Int?, schema: JSONSchema) {
        self.typeName = typeName
        self.version = version
        self.schema = schema
    }

    /// The name of the version's schema file: `v3.schema.json`, or `unversioned.schema.json`
    /// for documents from before versioning, as the fixtures name their files.
    public var fileName: String {
        (version.map { "v\($0)" } ?? "unversioned") + ".schema.json"
    }
}

/// The JSON Schemas of every version of a versioned type, derived from what each version's own
/// `init(from:)` reads.
///
/// Each version's decoding code runs once against a recording decoder, which hands it
/// placeholder values and notes every key it reads: `decode` makes a key required,
/// `decodeIfPresent` makes it optional (absent or `null`), nested types become nested objects
/// (in `$defs` when a type is used twice or contains itself), arrays record their element,
/// dictionaries their values, and enums that are `CaseIterable` with `String` or `Int` raw values,
/// or that list them through ``SchemaRawValues``, list the raw values their code accepts. The
/// decoder's key, date and data strategies are applied as the decoder reads documents; a
/// `Versioned` part accepts any version of its own type's chain, and a newer one that declares
/// the chain's newest may read it, as its reader does; and the version sits at
/// the place the type's spec writes it, as a constant.
///
/// <!-- snippet: schema-derive -->
/// ```swift
/// let schemas = VersionSchemas(for: Poem.self, decoder: JSONDecoder())
/// for version in schemas.schemas {
///     try version.schema.jsonData().write(to: folder.appendingPathComponent(version.fileName))
/// }
/// ```
///
/// What the derivation cannot see, it says: a type whose code throws on the recording decoder,
/// reads a value of an unknown type, or opens containers of more than one kind gets a
/// `description` that starts with `derivation incomplete:` and is left open, rather than a
/// guess. Each version's code runs twice, with two sets of placeholders (empty strings, zeros,
/// `false` and an enum's first case, then `"x"`, ones, `true` and its last case); code that reads
/// differently for the two has branched on a value, and the schema names the fields where.
public struct VersionSchemas: Sendable {
    /// The name of the chain: its newest type's name.
    public let typeName: String
    /// One schema per version, newest first, as `VersionChain` lists the types.
    public let schemas: [VersionSchema]

    /// Derives the schema of every version of `type`'s chain.
    ///
    /// - Parameters:
    ///   - type: The newest version of a versioned type.
    ///   - decoder: The decoder the type's documents are read with; its key, date and data
    ///     strategies shape the schemas. Its other settings, and the decoder itself, are not
    ///     used.
    public init<Newest: VersionedCodable>(for type: Newest.Type, decoder: JSONDecoder = JSONDecoder()) {
        let options = DerivationOptions(decoder)
        let name = Self.typeName(of: Newest.self)
        typeName = name
        schemas = VersionChain(for: Newest.self).types.map { version in
            VersionSchema(
                typeName: name,
                version: version.version,
                schema: Self.derive(version, named: name, options: options)
            )
        }
    }

    /// The schema of one version, or `nil` when the chain has no such version.
    ///
    /// - Parameter version: A version of the chain, or `nil` for documents from before
    ///   versioning.
    public subscript(version: Int?) -> JSONSchema? {
        schemas.first { $0.version == version }?.schema
    }

    /// The name the schemas use for a type: its name without its module.
    static func typeName(of type: Any.Type) -> String {
        String(describing: type)
    }

    private static func derive(
        _ type: any VersionedCodable.Type,
        named name: String,
        options: DerivationOptions
    ) -> JSONSchema {
        func open<V: VersionedCodable>(_ type: V.Type) -> JSONSchema {
            // Two runs with different placeholders: code that branches on what it reads shows
            // it by reading differently, and the schema says where instead of picking a branch.
            let runs = [0, 1].map { variant in
                let recorder = SchemaRecorder(options: options, variant: variant)
                let rootName = typeName(of: V.self)
                _ = try? recorder.recordVersion(V.self, definitionName: rootName, at: [])
                return SchemaDocument.assemble(root: rootName, recorder: recorder)
            }
            var schema = runs[0].isIncomplete && !runs[1].isIncomplete ? runs[1] : runs[0]
            if runs[0] != runs[1] {
                let fields = Set(runs[1].changes(since: runs[0]).map(\.field)).sorted()
                schema.addIncompleteNote(
                    "the code reads differently for different values at \(fields.joined(separator: ", "))"
                )
            }
            schema.dialect = "https://json-schema.org/draft/2020-12/schema"
            schema.title = V.version.map { "\(name) version \($0)" } ?? "\(name) before versioning"
            return schema
        }
        return open(type)
    }
}
