import Foundation
import VersionedCodable

/// An OpenAPI 3.1 document that holds the JSON Schemas of one API version's types in its
/// `components`: each type at the version that API version shows, as
/// `APIVersions/openAPIDocument(at:of:title:decoder:)` writes it.
///
/// Serve one per API version, so that a client generates code for its own, and check a
/// response against its version's component with ``violations(in:of:)``:
///
/// <!-- snippet: openapi-validate -->
/// ```swift
/// let documents = try versions.openAPIDocuments(of: [Contact.self], title: "Contacts")
/// for version in versions.versions {
///     let body = try versions.encode(ContactAPI.stored, at: version)
///     let document = try #require(documents[version.name])
///     let problems = try document.violations(in: body, of: OpenAPIDocument.componentName(of: Contact.self))
///     #expect(problems.isEmpty, "\(problems)")
/// }
/// ```
///
/// References between components point at `#/components/schemas/<name>`, as OpenAPI resolves
/// them against the whole document; ``schema(named:)`` turns a component back into a schema of
/// its own for the validator.
public struct OpenAPIDocument: Codable, Hashable, Sendable {
    /// The OpenAPI version the document follows: `3.1.0`.
    public var openapi: String
    /// The document's title and the API version it describes.
    public var info: Info
    /// The dialect of every schema in the document: JSON Schema draft 2020-12.
    public var jsonSchemaDialect: String
    /// The schemas, by component name.
    public var components: Components

    /// The `info` object: a title, and the API version's name as the document's version.
    public struct Info: Codable, Hashable, Sendable {
        /// The API's title.
        public var title: String
        /// The name of the API version the document describes, as clients send it.
        public var version: String

        /// Creates an `info` object.
        ///
        /// - Parameters:
        ///   - title: The API's title.
        ///   - version: The API version's name.
        public init(title: String, version: String) {
            self.title = title
            self.version = version
        }
    }

    /// The `components` object, of which the document uses `schemas` only.
    public struct Components: Codable, Hashable, Sendable {
        /// The schemas, by component name.
        public var schemas: [String: JSONSchema]

        /// Creates a `components` object.
        ///
        /// - Parameter schemas: The schemas, by component name.
        public init(schemas: [String: JSONSchema]) {
            self.schemas = schemas
        }
    }

    /// The OpenAPI version written: `3.1.0`, the first whose schemas are JSON Schema 2020-12.
    public static let openAPIVersion = "3.1.0"

    /// The JSON Schema dialect of the components, as the derivation writes it.
    public static let schemaDialect = "https://json-schema.org/draft/2020-12/schema"

    /// How a reference to a component starts: `#/components/schemas/`.
    public static let componentReferencePrefix = "#/components/schemas/"

    /// Creates a document.
    ///
    /// - Parameters:
    ///   - title: The API's title.
    ///   - apiVersion: The name of the API version it describes.
    ///   - schemas: The schemas, by component name, referring to each other with
    ///     ``componentReferencePrefix``.
    public init(title: String, apiVersion: String, schemas: [String: JSONSchema]) {
        openapi = Self.openAPIVersion
        info = Info(title: title, version: apiVersion)
        jsonSchemaDialect = Self.schemaDialect
        components = Components(schemas: schemas)
    }

    /// The name of the component that holds a versioned type's schema: its newest type's name,
    /// as the schema files and the API versions' description name it, with any character that
    /// OpenAPI does not allow in a component's name (anything but letters, digits, `.`, `-` and
    /// `_`) written as `_`.
    ///
    /// - Parameter type: The current version of a versioned type.
    /// - Returns: The component's name: `Contact`.
    public static func componentName(of type: any VersionedCodable.Type) -> String {
        componentName(VersionSchemas.typeName(of: type))
    }

    static func componentName(_ name: String) -> String {
        String(
            name.map { character in
                character.isASCII && (character.isLetter || character.isNumber || "._-".contains(character))
                    ? character : "_"
            }
        )
    }

    /// A component as a schema of its own, for ``JSONSchema/violations(in:)``: the component at
    /// the root, and every component of the document in its `$defs`, with the references
    /// between them pointing there.
    ///
    /// - Parameter name: The component's name, as ``componentName(of:)`` gives it.
    /// - Returns: A schema that validates what the component describes.
    /// - Throws: ``OpenAPIDocumentError/unknownComponent(_:available:)`` when the document has no
    ///   such component, and ``OpenAPIDocumentError/danglingReference(_:in:)`` when a component
    ///   refers to one the document does not have.
    public func schema(named name: String) throws(OpenAPIDocumentError) -> JSONSchema {
        guard let component = components.schemas[name] else {
            throw .unknownComponent(name, available: components.schemas.keys.sorted())
        }
        for (owner, schema) in components.schemas {
            var references: [String: Int] = [:]
            SchemaDocument.countReferences(in: schema, into: &references)
            for reference in references.keys.sorted() {
                guard reference.hasPrefix(Self.componentReferencePrefix),
                    components.schemas[String(reference.dropFirst(Self.componentReferencePrefix.count))] != nil
                else {
                    throw .danglingReference(reference, in: owner)
                }
            }
        }
        func local(_ schema: JSONSchema) -> JSONSchema {
            SchemaDocument.transform(schema) { site in
                guard let reference = site.ref, reference.hasPrefix(Self.componentReferencePrefix) else { return nil }
                var result = site
                result.ref = "#/$defs/" + reference.dropFirst(Self.componentReferencePrefix.count)
                return result
            }
        }
        var root = local(component)
        root.dialect = jsonSchemaDialect
        root.definitions = components.schemas.mapValues(local)
        return root
    }

    /// Checks a JSON body against one of the document's components.
    ///
    /// - Parameters:
    ///   - body: A JSON document, such as a response's body.
    ///   - name: The component's name, as ``componentName(of:)`` gives it.
    /// - Returns: Every place the body breaks the component's schema; empty when it matches.
    /// - Throws: ``OpenAPIDocumentError`` for a component the document does not have, and the
    ///   decoder's error when `body` is not JSON.
    public func violations(in body: Data, of name: String) throws -> [SchemaViolation] {
        try schema(named: name).violations(in: body)
    }

    /// Writes the document as pretty-printed JSON with sorted keys and a final newline: the same
    /// bytes for the same document on every run.
    ///
    /// - Returns: The document's JSON text, UTF-8 encoded.
    /// - Throws: `EncodingError` only if a number cannot be written, which a derived schema
    ///   never holds.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}

/// Why an OpenAPI document could not be written or used.
public enum OpenAPIDocumentError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The API versions do not declare a version of that name.
    case unknownAPIVersion(String, served: [String])
    /// A type's schema has no version that the API version shows: the type's chain does not
    /// hold it.
    case versionNotInChain(type: String, version: Int?, apiVersion: String)
    /// The document has no component of that name.
    case unknownComponent(String, available: [String])
    /// A component refers to a component the document does not have.
    case danglingReference(String, in: String)

    /// What went wrong, naming the version, type or component.
    public var description: String {
        switch self {
        case .unknownAPIVersion(let name, let served):
            "API version \(name) is not declared; the versions are \(served.joined(separator: ", "))"
        case .versionNotInChain(let type, let version, let apiVersion):
            "API version \(apiVersion) shows \(type) as version \(version.map(String.init) ?? "unversioned"), "
                + "which its chain does not have"
        case .unknownComponent(let name, let available):
            "the document has no component \(name); it has \(available.isEmpty ? "none" : available.joined(separator: ", "))"
        case .danglingReference(let reference, let owner):
            "component \(owner) refers to \(reference), which the document does not have"
        }
    }
}
