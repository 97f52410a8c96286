import Foundation
import Testing
import VersionedCodable

extension VersionedFixtures {
    /// Records a test issue when a value written with a plain `encode(_:)`, which writes no
    /// version, would be read back as another version or another value.
    ///
    /// A versioned type is `Codable`, so `JSONEncoder().encode(poem)` compiles where
    /// `encode(versioned:)` was meant. The document it writes has no version, and the
    /// versioned decode reads a missing version as `nil`. When the chain has a `nil` version
    /// for the documents written before versioning, and the current fields happen to decode as
    /// that old type, the current value is migrated from what looks like an old document: a
    /// title becomes "Untitled", a rating the default, and no error is thrown.
    ///
    /// The check writes `sample` with a plain `encode(_:)` of ``jsonEncoder`` and of
    /// ``propertyListEncoder``, reads each document back with the versioned decode and
    /// ``jsonDecoder`` or ``propertyListDecoder``, and records an issue when it is read as
    /// another version than the current one, or, for an `Equatable` type, as a value that
    /// differs from `sample`. A document that fails to decode passes: that mistake cannot go
    /// unnoticed.
    ///
    /// <!-- snippet: plain-encoding-check -->
    /// ```swift
    /// @Test("A poem written without its version is never read as an old one")
    /// func plainEncodingIsNotMistaken() {
    ///     VersionedFixtures(Poem.self, bundle: .module).checkPlainEncodingIsNotMistaken(.sample)
    /// }
    /// ```
    ///
    /// When it fails, find the plain `encode(_:)` calls and use `encode(versioned:)`, and make
    /// the mistake loud for the future: give the `nil`-version type a property that later
    /// versions do not write, so that a current document does not decode as an old one, or keep
    /// the version in an `Int?` property of the current type at the version's place, so that a
    /// plain encode writes it too.
    ///
    /// - Parameters:
    ///   - sample: A typical value of the current version. Choose one whose fields are all
    ///     set, since optional fields left `nil` are where old shapes match.
    ///   - sourceLocation: Where issues are reported; leave the default.
    /// - Returns: `true` when neither plain document is read as another version or value.
    @discardableResult
    public func checkPlainEncodingIsNotMistaken(
        _ sample: Value,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        let json = check(
            sample,
            writtenAs: "JSON",
            encode: { try jsonEncoder.encode($0) },
            decode: { try jsonDecoder.decodeWithStoredVersion(Value.self, from: $0) },
            at: sourceLocation
        )
        let propertyList = check(
            sample,
            writtenAs: "a property list",
            encode: { try propertyListEncoder.encode($0) },
            decode: { try propertyListDecoder.decodeWithStoredVersion(Value.self, from: $0) },
            at: sourceLocation
        )
        return json && propertyList
    }

    private func check(
        _ sample: Value,
        writtenAs format: String,
        encode: (Value) throws -> Data,
        decode: (Data) throws -> Versioned<Value>,
        at sourceLocation: SourceLocation
    ) -> Bool {
        let prefix = "\(Self.folderName) (version \(describe(Value.version))) written as \(format) "
        let data: Data
        do {
            data = try encode(sample)
        } catch {
            recordIssue(
                prefix + "with a plain `encode(_:)` could not be checked: the sample does not encode: \(error)",
                at: sourceLocation
            )
            return false
        }

        let read: Versioned<Value>
        do {
            read = try decode(data)
        } catch {
            // Refused with an error: whoever reads it learns that it was written wrong.
            return true
        }
        if read.storedVersion != Value.version {
            let storedType = VersionChain(for: Value.self).types.first { $0.version == read.storedVersion }
            recordIssue(
                prefix + "with a plain `encode(_:)` has no version, and the versioned decode takes it for "
                    + "version \(describe(read.storedVersion))\(storedType.map { " (\($0))" } ?? "") and "
                    + "migrates it to \(read.wrappedValue) without an error. Write it with "
                    + "`encode(versioned:)`, and see checkPlainEncodingIsNotMistaken(_:sourceLocation:) "
                    + "for how to make the mistake fail to decode.",
                at: sourceLocation
            )
            return false
        }
        if Self.differs(read.wrappedValue, from: sample) {
            recordIssue(
                prefix + "with a plain `encode(_:)` reads back as \(read.wrappedValue), not as the sample "
                    + "\(sample).",
                at: sourceLocation
            )
            return false
        }
        return true
    }

    /// Whether two values of an `Equatable` type differ; `false` for other types, which can
    /// only be checked by version.
    private static func differs(_ value: Value, from sample: Value) -> Bool {
        guard let value = value as? any Equatable else { return false }
        return !value.isEqual(to: sample)
    }
}

extension Equatable {
    fileprivate func isEqual(to other: Any) -> Bool {
        (other as? Self) == self
    }
}
