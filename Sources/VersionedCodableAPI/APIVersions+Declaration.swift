import VersionedCodable

extension APIVersions {
    /// Checks a declaration once, so that no request meets a mistake in it.
    static func validate(_ versions: [APIVersion], defaultVersion: APIVersion) throws(APIVersionError) {
        guard !versions.isEmpty else { throw .invalidDeclaration("the list of versions is empty") }
        var names: Set<String> = []
        for version in versions {
            guard NameForm.isWellFormed(version.name) else {
                throw .invalidDeclaration(
                    "\"\(version.name)\" cannot be sent as a version: a name is a word without spaces or commas"
                )
            }
            guard names.insert(version.name).inserted else {
                throw .invalidDeclaration("API version \(version.name) is listed twice")
            }
        }
        guard names.contains(defaultVersion.name) else {
            throw .invalidDeclaration("the default version \(defaultVersion.name) is not in the list")
        }
        // Each listed type's version must be in its chain, and no API version may show a type
        // older than an earlier one did: a client that moves up would see its data go back.
        let types = listedTypes(in: versions)
        for type in types {
            do {
                try type.chain.validate()
            } catch {
                throw .invalidDeclaration("the chain of \(type.name) is not sound: \(error)")
            }
        }
        var shownBefore: [ObjectIdentifier: (version: Int?, apiVersion: String)] = [:]
        for version in versions {
            for type in types {
                let shown = version.shownVersion(of: type)
                guard let position = type.chain.versions.firstIndex(of: shown) else {
                    throw .invalidDeclaration(
                        "API version \(version.name) shows \(type.name) as version \(versionText(shown)), "
                            + "which is not in its chain \(type.chain)"
                    )
                }
                if let before = shownBefore[type.id],
                    let earlier = type.chain.versions.firstIndex(of: before.version), position > earlier
                {
                    throw .invalidDeclaration(
                        "API version \(version.name) shows \(type.name) as version \(versionText(shown)), older "
                            + "than version \(versionText(before.version)) that API version \(before.apiVersion) shows"
                    )
                }
                shownBefore[type.id] = (shown, version.name)
            }
        }
    }

    /// Every versioned type some API version lists, once each, in the order first listed: the
    /// current version of each, as ``APIVersion/showing(_:asVersion:)`` named it. A type no API
    /// version lists is shown as its current version by all of them.
    public var listedTypes: [any VersionedCodable.Type] {
        Self.listedTypes(in: versions).map(\.chain.newest)
    }

    /// Every type some API version lists, once each, in the order first listed.
    static func listedTypes(in versions: [APIVersion]) -> [ShownType] {
        var types: [ShownType] = []
        for type in versions.flatMap(\.shown) where !types.contains(where: { $0.id == type.id }) {
            types.append(type)
        }
        return types
    }
}

/// How a service names its versions, so that a request naming a version in another form is
/// told it is malformed rather than unknown.
enum NameForm {
    case numbers
    case dates
    case words

    init(of names: [String]) {
        if names.allSatisfy({ Int($0) != nil }) {
            self = .numbers
        } else if names.allSatisfy(Self.isDate) {
            self = .dates
        } else {
            self = .words
        }
    }

    func matches(_ name: String) -> Bool {
        switch self {
        case .numbers: Int(name) != nil
        case .dates: Self.isDate(name)
        case .words: Self.isWellFormed(name)
        }
    }

    /// A word clients can send in a header: printable ASCII, no spaces, commas or quotes.
    static func isWellFormed(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "\"") }
    }

    /// `YYYY-MM-DD`, with a month and day that can exist.
    static func isDate(_ name: String) -> Bool {
        let parts = name.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } }),
            let month = Int(parts[1]), let day = Int(parts[2])
        else { return false }
        return (1...12).contains(month) && (1...31).contains(day)
    }
}

extension APIVersion {
    /// The version of a listed type this API version shows: the one it lists, which may be the
    /// unversioned `nil`, or the type's current version.
    func shownVersion(of type: ShownType) -> Int? {
        shownVersion(of: type.id, current: type.chain.versions.first ?? nil)
    }

    /// The listed version of the type `id` names, or `current` when it is not listed. Not
    /// `?.version ?? current`: a listed `nil` (the unversioned form) is a version.
    func shownVersion(of id: ObjectIdentifier, current: Int?) -> Int? {
        guard let listed = shown.first(where: { $0.id == id }) else { return current }
        return listed.version
    }
}
