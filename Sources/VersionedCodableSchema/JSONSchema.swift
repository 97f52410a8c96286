import Foundation

/// A JSON Schema (draft 2020-12), limited to the keywords the derivation writes and the validator
/// checks.
///
/// A schema is a plain value: compare two with `==`, read one from a file with `JSONDecoder`, and
/// write one with ``jsonData()``, which gives the same bytes for the same schema on every run, so
/// that committed schema files change only when the schema does.
///
/// <!-- snippet: schema-derive -->
/// ```swift
/// let schemas = VersionSchemas(for: Poem.self, decoder: JSONDecoder())
/// for version in schemas.schemas {
///     try version.schema.jsonData().write(to: folder.appendingPathComponent(version.fileName))
/// }
/// ```
///
/// A boolean schema (`true` or `false`) is a schema whose ``boolean`` is set; ``JSONSchema/false``
/// is the one the derivation writes for the keys a closed object does not have.
public struct JSONSchema: Hashable, Sendable {
    /// The dialect, set on the root of a derived schema: `https://json-schema.org/draft/2020-12/schema`.
    public var dialect: String?
    /// A title: the type and version a derived schema describes.
    public var title: String?
    /// Notes for readers; a derivation that could not see everything says so here, starting with
    /// `derivation incomplete:`.
    public var description: String?
    /// For a boolean schema, the value it is: `true` accepts everything, `false` nothing.
    public var boolean: Bool?
    /// The JSON types allowed, such as `["string"]` or `["integer", "null"]`.
    public var type: [String]?
    /// A format annotation (`date-time`, `uri`, `uuid`); the validator does not check it.
    public var format: String?
    /// The encoding of a string's content (`base64`).
    public var contentEncoding: String?
    /// The schemas of an object's named properties.
    public var properties: [String: JSONSchema]?
    /// The properties an object must have, sorted.
    public var required: [String]?
    /// The values allowed.
    public var enumValues: [JSONValue]?
    /// The one value allowed.
    public var constValue: JSONValue?
    /// The smallest number allowed.
    public var minimum: Decimal?
    /// The largest number allowed.
    public var maximum: Decimal?
    /// A reference to a definition of the root schema, such as `#/$defs/Author`.
    public var ref: String?
    /// Definitions that references point to, by name.
    public var definitions: [String: JSONSchema]?
    /// Schemas of which a value must match at least one.
    public var anyOf: [JSONSchema]?

    // Single schemas inside a schema are kept in arrays of at most one element, so that the
    // struct can hold itself without a box.
    private var itemsStorage: [JSONSchema] = []
    private var additionalPropertiesStorage: [JSONSchema] = []

    /// The schema of every element of an array.
    public var items: JSONSchema? {
        get { itemsStorage.first }
        set { itemsStorage = newValue.map { [$0] } ?? [] }
    }

    /// The schema of an object's properties that ``properties`` does not name; ``JSONSchema/false``
    /// for a closed object.
    public var additionalProperties: JSONSchema? {
        get { additionalPropertiesStorage.first }
        set { additionalPropertiesStorage = newValue.map { [$0] } ?? [] }
    }

    /// Creates a schema that accepts everything, to be narrowed by setting its keywords.
    public init() {}

    /// A schema of the given JSON type.
    ///
    /// - Parameter type: A JSON type name, such as `string` or `object`.
    public init(type: String) {
        self.type = [type]
    }

    /// A reference to a definition of the root schema.
    ///
    /// - Parameter definition: The definition's name in `$defs`.
    /// - Returns: A schema whose ``ref`` is `#/$defs/<definition>`.
    public static func reference(to definition: String) -> JSONSchema {
        var schema = JSONSchema()
        schema.ref = "#/$defs/" + definition
        return schema
    }

    /// The boolean schema `false`, which accepts nothing.
    public static let `false`: JSONSchema = {
        var schema = JSONSchema()
        schema.boolean = false
        return schema
    }()

    /// Whether the derivation marked this schema as not knowing everything about its value.
    public var isIncomplete: Bool {
        description?.contains(Self.incompleteMarker) ?? false
    }

    /// The words that start a note of something the derivation could not see.
    public static let incompleteMarker = "derivation incomplete:"

    /// Writes the schema as pretty-printed JSON with sorted keys and a final newline: the same
    /// bytes for the same schema on every run.
    ///
    /// - Returns: The schema's JSON text, UTF-8 encoded.
    /// - Throws: `EncodingError` only if a number cannot be written, which a derived schema
    ///   never holds.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}

extension JSONSchema: Codable {
    private enum CodingKeys: String, CodingKey {
        case dialect = "$schema"
        case title, description, type, format, contentEncoding, properties, required
        case enumValues = "enum"
        case constValue = "const"
        case minimum, maximum
        case ref = "$ref"
        case definitions = "$defs"
        case anyOf, items, additionalProperties
    }

    /// Reads a schema written with the keywords this type holds; other keywords are ignored.
    ///
    /// - Parameter decoder: The decoder to read from.
    /// - Throws: `DecodingError` when a keyword holds a value of the wrong kind.
    public init(from decoder: any Decoder) throws {
        // Nearly every schema is an object: asked first, so that reading a file of them does not
        // throw and catch a type mismatch at each one. A coder tells a value's kind only by
        // failing to read it as another.
        let container: KeyedDecodingContainer<CodingKeys>
        do {
            container = try decoder.container(keyedBy: CodingKeys.self)
        } catch {
            guard let boolean = try? decoder.singleValueContainer().decode(Bool.self) else { throw error }
            self.boolean = boolean
            return
        }
        dialect = try container.decodeIfPresent(String.self, forKey: .dialect)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        description = try container.decodeIfPresent(String.self, forKey: .description)
        if let one = try? container.decodeIfPresent(String.self, forKey: .type) {
            type = [one]
        } else {
            type = try container.decodeIfPresent([String].self, forKey: .type)
        }
        format = try container.decodeIfPresent(String.self, forKey: .format)
        contentEncoding = try container.decodeIfPresent(String.self, forKey: .contentEncoding)
        properties = try container.decodeIfPresent([String: JSONSchema].self, forKey: .properties)
        required = try container.decodeIfPresent([String].self, forKey: .required)
        enumValues = try container.decodeIfPresent([JSONValue].self, forKey: .enumValues)
        constValue = try container.decodeIfPresent(JSONValue.self, forKey: .constValue)
        minimum = try container.decodeIfPresent(Decimal.self, forKey: .minimum)
        maximum = try container.decodeIfPresent(Decimal.self, forKey: .maximum)
        ref = try container.decodeIfPresent(String.self, forKey: .ref)
        definitions = try container.decodeIfPresent([String: JSONSchema].self, forKey: .definitions)
        anyOf = try container.decodeIfPresent([JSONSchema].self, forKey: .anyOf)
        items = try container.decodeIfPresent(JSONSchema.self, forKey: .items)
        additionalProperties = try container.decodeIfPresent(JSONSchema.self, forKey: .additionalProperties)
    }

    /// Writes the keywords that are set; a boolean schema is written as `true` or `false`.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        if let boolean {
            var single = encoder.singleValueContainer()
            try single.encode(boolean)
            return
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(dialect, forKey: .dialect)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(description, forKey: .description)
        if let type, type.count == 1 {
            try container.encode(type[0], forKey: .type)
        } else {
            try container.encodeIfPresent(type, forKey: .type)
        }
        try container.encodeIfPresent(format, forKey: .format)
        try container.encodeIfPresent(contentEncoding, forKey: .contentEncoding)
        try container.encodeIfPresent(properties, forKey: .properties)
        try container.encodeIfPresent(required, forKey: .required)
        try container.encodeIfPresent(enumValues, forKey: .enumValues)
        try container.encodeIfPresent(constValue, forKey: .constValue)
        try container.encodeIfPresent(minimum, forKey: .minimum)
        try container.encodeIfPresent(maximum, forKey: .maximum)
        try container.encodeIfPresent(ref, forKey: .ref)
        try container.encodeIfPresent(definitions, forKey: .definitions)
        try container.encodeIfPresent(anyOf, forKey: .anyOf)
        try container.encodeIfPresent(items, forKey: .items)
        try container.encodeIfPresent(additionalProperties, forKey: .additionalProperties)
    }
}
