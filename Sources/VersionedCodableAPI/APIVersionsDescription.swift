import VersionedCodable

/// The API versions of a service as its clients read about them: each version, the version of
/// each type it shows, and what changed from the API version before, taken from the chains.
///
/// Serve it as JSON (it is `Codable`) or as a page (``markdown``):
///
/// <!-- snippet: api-versions-description -->
/// ```swift
/// let page = versions.describe().markdown
/// let document = try JSONEncoder().encode(versions.describe())
/// ```
public struct APIVersionsDescription: Codable, Sendable, Equatable {
    /// The API versions, oldest first.
    public var versions: [Version]

    /// An API version.
    public struct Version: Codable, Sendable, Equatable {
        /// The name clients send.
        public var name: String
        /// Whether a request that names no version is read at this one.
        public var isDefault: Bool
        /// Each type the service lists, as this API version shows it.
        public var types: [ShownType]
        /// Where the service serves this API version's schemas (an OpenAPI document), when it
        /// links them.
        public var schemas: String?
    }

    /// A type as an API version shows it.
    public struct ShownType: Codable, Sendable, Equatable {
        /// The current type's name.
        public var type: String
        /// The version shown; `nil` for the unversioned one.
        public var version: Int?
        /// The Swift type of that version.
        public var versionType: String
        /// The fields that version reads, or `nil` when they cannot be listed (see ``Change``).
        public var fields: [String]?
        /// The versions this API version shows beyond the one the API version before it showed,
        /// oldest first; empty when it shows the same version, and for the oldest API version.
        public var changes: [Change]
    }

    /// One step of a type's chain, as an API version's clients see it.
    ///
    /// Fields are listed by decoding the version from empty values; a version whose decoding
    /// refuses an empty value (an enum without `""` or `0` among its raw values that is not
    /// `CaseIterable`, a `URL`, a single `Versioned` part) has its fields and their changes
    /// left out, as `nil`, rather than guessed.
    public struct Change: Codable, Sendable, Equatable {
        /// The version this step reaches.
        public var version: Int?
        /// Its Swift type.
        public var versionType: String
        /// What builds of the version before may do with its documents: `compatible`,
        /// `read-only compatible` or `incompatible`.
        public var compatibility: String
        /// Fields this version reads that the version before did not.
        public var added: [String]?
        /// Fields the version before read that this version does not.
        public var removed: [String]?
    }

    /// The description as a Markdown page: a section per API version, newest first.
    public var markdown: String {
        var lines = ["# API versions", ""]
        for version in versions.reversed() {
            lines.append("## \(version.name)\(version.isDefault ? " (default)" : "")")
            lines.append("")
            if let schemas = version.schemas {
                lines.append("Schemas: [OpenAPI 3.1 components](\(schemas))")
                lines.append("")
            }
            for type in version.types {
                var line = "- **\(type.type)**: version \(versionText(type.version)) (`\(type.versionType)`)"
                if let fields = type.fields {
                    line += ", fields \(fields.map { "`\($0)`" }.joined(separator: ", "))"
                }
                lines.append(line)
                for change in type.changes {
                    var parts: [String] = []
                    if let added = change.added, !added.isEmpty {
                        parts.append("adds \(added.map { "`\($0)`" }.joined(separator: ", "))")
                    }
                    if let removed = change.removed, !removed.isEmpty {
                        parts.append("removes \(removed.map { "`\($0)`" }.joined(separator: ", "))")
                    }
                    if change.added == nil {
                        parts.append("fields not listed")
                    }
                    let what = parts.isEmpty ? "same fields" : parts.joined(separator: "; ")
                    lines.append(
                        "  - new in version \(versionText(change.version)) (`\(change.versionType)`, "
                            + "\(change.compatibility)): \(what)"
                    )
                }
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }
}

extension APIVersions {
    /// Describes the API versions from the declaration and the types' chains: nothing in it is
    /// written by hand.
    ///
    /// <!-- snippet: api-versions-description-links -->
    /// ```swift
    /// let page = versions.describe(linkingSchemas: { "/openapi/v\($0.name).json" }).markdown
    /// ```
    ///
    /// - Parameter schemas: Where the service serves each API version's schemas, to link from
    ///   the description; `nil` to link none.
    /// - Returns: The description, to serve as JSON or as a page.
    public func describe(linkingSchemas schemas: ((APIVersion) -> String)? = nil) -> APIVersionsDescription {
        let types = Self.listedTypes(in: versions)
        var fields: [ObjectIdentifier: [String]?] = [:]
        func fieldsOf(_ type: any VersionedCodable.Type) -> [String]? {
            if let known = fields[ObjectIdentifier(type)] { return known }
            let found = FieldProbe.fields(of: type, userInfo: mergeDecoder.userInfo)
            fields[ObjectIdentifier(type)] = .some(found)
            return found
        }
        var previous: [ObjectIdentifier: Int] = [:]
        var described: [APIVersionsDescription.Version] = []
        for version in versions {
            var shownTypes: [APIVersionsDescription.ShownType] = []
            for type in types {
                let chain = type.chain
                let shown = version.shownVersion(of: type)
                let position = chain.versions.firstIndex(of: shown) ?? 0
                var changes: [APIVersionsDescription.Change] = []
                if let before = previous[type.id], before > position {
                    for index in stride(from: before - 1, through: position, by: -1) {
                        let step = chain.types[index]
                        let now = fieldsOf(step)
                        let then = fieldsOf(chain.types[index + 1])
                        var added: [String]?
                        var removed: [String]?
                        if let now, let then {
                            added = now.filter { !then.contains($0) }
                            removed = then.filter { !now.contains($0) }
                        }
                        changes.append(
                            .init(
                                version: step.version,
                                versionType: String(describing: step),
                                compatibility: compatibilityName(step.compatibility),
                                added: added,
                                removed: removed
                            )
                        )
                    }
                }
                previous[type.id] = position
                shownTypes.append(
                    .init(
                        type: type.name,
                        version: shown,
                        versionType: String(describing: chain.types[position]),
                        fields: fieldsOf(chain.types[position]),
                        changes: changes
                    )
                )
            }
            described.append(
                .init(
                    name: version.name,
                    isDefault: version == defaultVersion,
                    types: shownTypes,
                    schemas: schemas?(version)
                )
            )
        }
        return APIVersionsDescription(versions: described)
    }

    private func compatibilityName(_ compatibility: ForwardCompatibility) -> String {
        switch compatibility {
        case .compatible: "compatible"
        case .readOnlyCompatible: "read-only compatible"
        case .incompatible: "incompatible"
        }
    }
}
