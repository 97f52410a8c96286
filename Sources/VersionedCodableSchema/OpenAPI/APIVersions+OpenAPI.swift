import Foundation
import VersionedCodable
import VersionedCodableAPI

extension APIVersions {
    /// The OpenAPI 3.1 document of one API version: the schema of each type it shows, at the
    /// version it shows it, in `components`.
    ///
    /// `types` are the types of the bodies the service sends; the types that any API version
    /// lists (`listedTypes`) come too, so that a `Versioned` part is described at
    /// the version this API version shows it, as `encode(_:at:)` writes it. Each
    /// schema is the one ``VersionSchemas`` derives for that version, with its references
    /// pointing at `#/components/schemas/<name>`: a part refers to its type's component, and
    /// the definitions a schema keeps in `$defs` become components of their own, named after
    /// the type that holds them when another type's definition has the name already. A body's
    /// root carries its version unless the API versions leave it out of responses
    /// (`versionKeyInResponses`); parts always carry theirs.
    ///
    /// <!-- snippet: openapi-document -->
    /// ```swift
    /// let document = try versions.openAPIDocument(at: "2025-09-01", of: [Contact.self], title: "Contacts")
    /// let json = try document.jsonData()
    /// ```
    ///
    /// - Parameters:
    ///   - version: The API version, as declared or named alone.
    ///   - types: The current versions of the types of the bodies the service sends.
    ///   - title: The API's title, for the document's `info`.
    ///   - decoder: The decoder whose key, date and data strategies the service's bodies follow;
    ///     the derivation reads them as ``VersionSchemas/init(for:decoder:)`` does.
    /// - Returns: The document.
    /// - Throws: ``OpenAPIDocumentError/unknownAPIVersion(_:served:)`` for a version that is
    ///   not declared, and ``OpenAPIDocumentError/versionNotInChain(type:version:apiVersion:)``
    ///   when a type of `types` is not shown at a version of its chain.
    public func openAPIDocument(
        at version: APIVersion,
        of types: [any VersionedCodable.Type],
        title: String,
        decoder: JSONDecoder = JSONDecoder()
    ) throws(OpenAPIDocumentError) -> OpenAPIDocument {
        var derived: [ObjectIdentifier: VersionSchemas] = [:]
        return try openAPIDocument(at: version, of: types, title: title, decoder: decoder, derived: &derived)
    }

    /// The OpenAPI 3.1 document of every API version, by the version's name; each type's
    /// schemas are derived once for all of them.
    ///
    /// - Parameters:
    ///   - types: The current versions of the types of the bodies the service sends.
    ///   - title: The API's title, for each document's `info`.
    ///   - decoder: The decoder whose key, date and data strategies the service's bodies follow.
    /// - Returns: One document per API version, by its name.
    /// - Throws: ``OpenAPIDocumentError/versionNotInChain(type:version:apiVersion:)`` when a
    ///   type of `types` is not shown at a version of its chain.
    public func openAPIDocuments(
        of types: [any VersionedCodable.Type],
        title: String,
        decoder: JSONDecoder = JSONDecoder()
    ) throws(OpenAPIDocumentError) -> [String: OpenAPIDocument] {
        var derived: [ObjectIdentifier: VersionSchemas] = [:]
        var documents: [String: OpenAPIDocument] = [:]
        for version in versions {
            documents[version.name] = try openAPIDocument(
                at: version,
                of: types,
                title: title,
                decoder: decoder,
                derived: &derived
            )
        }
        return documents
    }

    private func openAPIDocument(
        at version: APIVersion,
        of types: [any VersionedCodable.Type],
        title: String,
        decoder: JSONDecoder,
        derived: inout [ObjectIdentifier: VersionSchemas]
    ) throws(OpenAPIDocumentError) -> OpenAPIDocument {
        guard let declared = versions.first(where: { $0 == version }) else {
            throw .unknownAPIVersion(version.name, served: versions.map(\.name))
        }
        let roots = Set(types.map { ObjectIdentifier($0) })
        var shownTypes: [any VersionedCodable.Type] = []
        for type in types + listedTypes
        where !shownTypes.contains(where: { ObjectIdentifier($0) == ObjectIdentifier(type) }) {
            shownTypes.append(type)
        }
        // The definition name each shown type has in the derivation's `$defs`, and the
        // component that stands for it.
        var componentOfType: [String: String] = [:]
        for type in shownTypes {
            let component = OpenAPIDocument.componentName(of: type)
            componentOfType[VersionSchemas.typeName(of: type)] = component
            // The definition a part's reader accepts, where the derivation names one for it.
            componentOfType["Versioned." + VersionSchemas.typeName(of: type)] = component
        }
        var schemas: [String: JSONSchema] = [:]
        var extras: [String: JSONSchema] = [:]
        for type in shownTypes {
            let typeName = VersionSchemas.typeName(of: type)
            let all = derived[ObjectIdentifier(type)] ?? derive(type, decoder: decoder)
            derived[ObjectIdentifier(type)] = all
            let shown = Self.shownVersion(of: type, in: declared)
            guard let schema = all[shown] else {
                throw .versionNotInChain(type: typeName, version: shown, apiVersion: declared.name)
            }
            let component = componentOfType[typeName]!
            var body = schema
            Self.requireOlderBuildsDeclaration(of: type, at: shown, in: &body)
            body.dialect = nil
            let definitions = body.definitions ?? [:]
            body.definitions = nil
            // A definition of a shown type is that type's component, at the version this API
            // version shows; any other is a component of its own.
            var target: [String: String] = [:]
            for name in definitions.keys {
                if let shownComponent = componentOfType[name] {
                    target[name] = shownComponent
                } else {
                    let plain = OpenAPIDocument.componentName(name)
                    let taken = componentOfType.values.contains(plain) || extras[plain] != nil
                    target[name] = taken ? OpenAPIDocument.componentName("\(typeName).\(name)") : plain
                }
            }
            func pointingAtComponents(_ schema: JSONSchema) -> JSONSchema {
                SchemaDocument.transform(schema) { site in
                    guard let reference = site.ref else { return nil }
                    var result = site
                    if reference == "#" {
                        result.ref = OpenAPIDocument.componentReferencePrefix + component
                    } else if reference.hasPrefix("#/$defs/"), let name = target[String(reference.dropFirst(8))] {
                        result.ref = OpenAPIDocument.componentReferencePrefix + name
                    } else {
                        return nil
                    }
                    return result
                }
            }
            body = pointingAtComponents(body)
            if roots.contains(ObjectIdentifier(type)) && !versionKeyInResponses {
                Self.removeVersionKey(of: type, from: &body)
            }
            schemas[component] = body
            for (name, definition) in definitions where componentOfType[name] == nil {
                extras[target[name]!] = pointingAtComponents(definition)
            }
        }
        // Only what the shown types reach: a part is shown at one version, so the other versions
        // its reader accepts, which the derivation defines beside it, are not components.
        var reached: [String: Int] = [:]
        var pending = Array(schemas.values)
        while let next = pending.popLast() {
            var found: [String: Int] = [:]
            SchemaDocument.countReferences(in: next, into: &found)
            for reference in found.keys where reached[reference] == nil {
                reached[reference] = 1
                let name = String(reference.dropFirst(OpenAPIDocument.componentReferencePrefix.count))
                if reference.hasPrefix(OpenAPIDocument.componentReferencePrefix), let extra = extras[name] {
                    pending.append(extra)
                }
            }
        }
        for (name, extra) in extras where reached[OpenAPIDocument.componentReferencePrefix + name] != nil {
            schemas[name] = schemas[name] ?? extra
        }
        return OpenAPIDocument(title: title, apiVersion: declared.name, schemas: schemas)
    }

    private func derive(_ type: any VersionedCodable.Type, decoder: JSONDecoder) -> VersionSchemas {
        func open<Value: VersionedCodable>(_ type: Value.Type) -> VersionSchemas {
            VersionSchemas(for: type, decoder: decoder)
        }
        return open(type)
    }

    private static func shownVersion(of type: any VersionedCodable.Type, in version: APIVersion) -> Int? {
        func open<Value: VersionedCodable>(_ type: Value.Type) -> Int? {
            version.version(of: type)
        }
        return open(type)
    }

    /// Requires the declaration of the older builds that may read a version where its schema
    /// allows it, beside a version at the root of the document: the derivation allows it where
    /// the library writes it, and an answer is written as the version it shows, which carries it.
    private static func requireOlderBuildsDeclaration(
        of type: any VersionedCodable.Type,
        at version: Int?,
        in schema: inout JSONSchema
    ) {
        func path<Value: VersionedCodable>(_ type: Value.Type) -> [String]? {
            let chain = VersionChain(for: type)
            return chain.versions.firstIndex(of: version).flatMap { VersionPlace.path(of: chain.types[$0]) }
        }
        guard let path = path(type), path.count == 1, schema.properties?[path[0] + "ReadableFrom"] != nil else {
            return
        }
        schema.require(path[0] + "ReadableFrom")
    }

    /// Takes the root's version out of a schema, for responses written without it: the first
    /// key of the path the type's spec writes it at, and the declaration of older builds beside
    /// it.
    private static func removeVersionKey(of type: any VersionedCodable.Type, from schema: inout JSONSchema) {
        func open<Value: VersionedCodable>(_ type: Value.Type) -> [String]? {
            VersionPlace.path(of: type)
        }
        guard let key = open(type)?.first else { return }
        let keys: Set = [key, key + "ReadableFrom", key + "WritableFrom"]
        schema.properties = schema.properties?.filter { !keys.contains($0.key) }
        schema.required = schema.required?.filter { !keys.contains($0) }
    }
}
