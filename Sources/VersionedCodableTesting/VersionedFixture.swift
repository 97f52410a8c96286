import Foundation
import Testing

/// One stored document of a versioned type: a file whose name says which version wrote it.
///
/// Fixture files live in a folder named after the type (`String(describing: Poem.self)`)
/// and are named by version and format:
///
/// | File name | Holds |
/// |---|---|
/// | `v1.json` | a JSON document of version 1 |
/// | `v1.xml.plist`, `v1.binary.plist` | a property list of version 1 |
/// | `v1-empty-poem.json` | another version 1 document; the text after the dash says what it shows |
/// | `unversioned.json`, `unversioned-draft.plist` | a document written before the type had a version |
///
/// A `.plist` file may be in either property list format, whatever its name says; the format
/// is read from its first bytes.
public struct VersionedFixture: Sendable, Hashable, CustomStringConvertible {
    /// How a fixture's document is encoded.
    public enum Format: String, Sendable, Hashable, CaseIterable {
        /// JSON, read with a `JSONDecoder`; the file ends in `.json`.
        case json
        /// An XML property list, read with a `PropertyListDecoder`; written as `.xml.plist`.
        case xmlPropertyList
        /// A binary property list, read with a `PropertyListDecoder`; written as `.binary.plist`.
        case binaryPropertyList

        /// The end of the file name a fixture of this format is written with.
        public var fileExtension: String {
            switch self {
            case .json: "json"
            case .xmlPropertyList: "xml.plist"
            case .binaryPropertyList: "binary.plist"
            }
        }
    }

    /// Where the fixture is.
    public let url: URL

    /// The version the file name says the document was written by; `nil` for an
    /// `unversioned` fixture.
    public let version: Int?

    /// The text after the dash in the file name (`empty-poem` in `v1-empty-poem.json`), or
    /// `nil` when there is none.
    public let label: String?

    /// How the document is encoded.
    public let format: Format

    /// The file name, which is also how the fixture is named in test results.
    public var fileName: String { url.lastPathComponent }

    /// The file name.
    public var description: String { fileName }

    /// Reads a fixture's version, label and format from its file name.
    ///
    /// Returns `nil` when the name does not follow the convention, so that a misnamed file is
    /// noticed instead of being read as the wrong version:
    ///
    /// <!-- snippet: fixture-from-url -->
    /// ```swift
    /// let fixture = VersionedFixture(url: folder.appending(path: "v2-no-rating.json"))
    /// // fixture?.version == 2, fixture?.label == "no-rating", fixture?.format == .json
    /// ```
    ///
    /// - Parameter url: The fixture file. A `.plist` file is opened to tell its format.
    public init?(url: URL) {
        guard let name = FixtureFileName(url.lastPathComponent) else { return nil }
        self.url = url
        self.version = name.version
        self.label = name.label
        switch name.kind {
        case .json:
            format = .json
        case .xmlPropertyList:
            format = .xmlPropertyList
        case .binaryPropertyList:
            format = .binaryPropertyList
        case .propertyListOfEitherFormat:
            format = Self.startsLikeBinaryPropertyList(url) ? .binaryPropertyList : .xmlPropertyList
        }
    }

    /// The name a fixture file of a version should have.
    ///
    /// <!-- snippet: fixture-file-names -->
    /// ```swift
    /// let name = VersionedFixture.fileName(forVersion: 3)  // "v3.json"
    /// let draft = VersionedFixture.fileName(forVersion: nil, label: "draft")  // "unversioned-draft.json"
    /// ```
    ///
    /// - Parameters:
    ///   - version: The version that wrote the document; `nil` for a document written before
    ///     the type had a version.
    ///   - label: What the document shows, put after a dash; `nil` for none.
    ///   - format: How the document is encoded.
    /// - Returns: The file name, without a folder.
    public static func fileName(
        forVersion version: Int?,
        label: String? = nil,
        format: Format = .json
    ) -> String {
        let base = version.map { "v\($0)" } ?? FixtureFileName.unversioned
        let labelled = label.map { "\(base)-\($0)" } ?? base
        return "\(labelled).\(format.fileExtension)"
    }

    /// Reads the document.
    ///
    /// - Returns: The file's bytes.
    /// - Throws: The error reading the file throws.
    public func data() throws -> Data {
        try Data(contentsOf: url)
    }

    private static func startsLikeBinaryPropertyList(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let start = (try? handle.read(upToCount: 6)) ?? Data()
        return start == Data("bplist".utf8)
    }
}

extension VersionedFixture: Comparable {
    /// Orders fixtures by version (`unversioned` first), then label, then format, so that
    /// results are listed in the order the versions shipped.
    public static func < (lhs: VersionedFixture, rhs: VersionedFixture) -> Bool {
        let left = (lhs.version ?? Int.min, lhs.label ?? "", lhs.format.fileExtension, lhs.fileName)
        let right = (rhs.version ?? Int.min, rhs.label ?? "", rhs.format.fileExtension, rhs.fileName)
        return left < right
    }
}

extension VersionedFixture: CustomTestStringConvertible {
    /// The file name, so that each argument of a parameterized test is named after its file.
    public var testDescription: String { fileName }
}

/// The parts of a fixture's file name.
struct FixtureFileName {
    static let unversioned = "unversioned"

    enum Kind {
        case json
        case xmlPropertyList
        case binaryPropertyList
        case propertyListOfEitherFormat
    }

    let version: Int?
    let label: String?
    let kind: Kind

    init?(_ fileName: String) {
        var stem = Substring(fileName)
        if stem.hasSuffix(".json") {
            stem = stem.dropLast(".json".count)
            kind = .json
        } else if stem.hasSuffix(".xml.plist") {
            stem = stem.dropLast(".xml.plist".count)
            kind = .xmlPropertyList
        } else if stem.hasSuffix(".binary.plist") {
            stem = stem.dropLast(".binary.plist".count)
            kind = .binaryPropertyList
        } else if stem.hasSuffix(".plist") {
            stem = stem.dropLast(".plist".count)
            kind = .propertyListOfEitherFormat
        } else {
            return nil
        }

        // A negative version's sign is not a label's dash: `v-1.json`, `v-1-draft.json`.
        let versionPart: Substring
        let signed = stem.hasPrefix("v-") ? stem.index(stem.startIndex, offsetBy: 2) : stem.startIndex
        if let dash = stem[signed...].firstIndex(of: "-") {
            versionPart = stem[..<dash]
            let label = stem[stem.index(after: dash)...]
            guard !label.isEmpty, !label.contains(".") else { return nil }
            self.label = String(label)
        } else {
            versionPart = stem
            self.label = nil
        }

        let digits = versionPart.dropFirst()
        let unsigned = digits.hasPrefix("-") ? digits.dropFirst() : digits
        if versionPart == Self.unversioned {
            version = nil
        } else if versionPart.first == "v", !unsigned.isEmpty, unsigned.allSatisfy(\.isASCIIDigit),
            let number = Int(digits), number != 0 || unsigned == digits
        {
            version = number
        } else {
            return nil
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
