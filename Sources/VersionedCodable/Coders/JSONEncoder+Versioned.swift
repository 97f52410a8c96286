import Foundation

extension JSONEncoder {
    /// Encodes a versioned value with its type's version.
    ///
    /// The version is written at the path of the type's `VersionSpec`, after the type's own
    /// fields and merged into any object the type writes there. The encoder's strategies and
    /// `outputFormatting` apply as usual.
    ///
    /// <!-- snippet: json-encode -->
    /// ```swift
    /// let data = try JSONEncoder().encode(versioned: poem)
    /// ```
    ///
    /// - Parameter value: The value to encode.
    /// - Returns: The encoded document.
    /// - Throws: ``VersionedEncodingError/typeHasClashingVersionField`` when the type writes its
    ///   own value where the version goes, another ``VersionedEncodingError`` when the version
    ///   cannot be written beside what the type writes,
    ///   ``VersionedDecodingError/invalidVersionChain(_:)`` when the chain is not sound or its spec
    ///   cannot say where the version goes, and any error the type's or the spec's encoding throws.
    public func encode(versioned value: any VersionedCodable) throws -> Data {
        let root = VersionedRoot(
            value: value,
            versionsToWrite: VersionsToWrite.listed(in: userInfo),
            keyStrategy: keyEncodingStrategy.changingKeys
        )
        return try VersionedEncodingError.unwrapping { try encode(root) }
    }

    /// Encodes a versioned value as an older version of its type, for readers that only know
    /// that version.
    ///
    /// Each step down uses the type's ``VersionedCodable/downgraded()``.
    ///
    /// <!-- snippet: json-encode-older -->
    /// ```swift
    /// let forOldReaders = try JSONEncoder().encode(versioned: poem, asVersion: 3)
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value to encode, of the current version.
    ///   - version: The older version to write. It must be in the value's chain.
    /// - Returns: The encoded document, as the older version writes it.
    /// - Throws: ``VersionedEncodingError`` when the version is not in the chain, a step has no
    ///   downgrade or cannot represent the value, or the version cannot be written beside what the
    ///   type writes; ``VersionedDecodingError/invalidVersionChain(_:)`` when the chain is not
    ///   sound; and any error the type's or the spec's encoding throws.
    public func encode(versioned value: any VersionedCodable, asVersion version: Int?) throws -> Data {
        try VersionedEncodingError.unwrapping {
            try encode(VersionedRoot(value: value, version: version, keyStrategy: keyEncodingStrategy.changingKeys))
        }
    }
}

// Where the spec writes, a key of the type's that the strategy writes as one of the spec's keys
// would be replaced by it: the writer compares what the strategy makes of both (see
// `SpecWriter.checkKeyForms(at:)`). Only `encode(versioned:)` knows the strategy; a part inside
// a document, or a document written through `encodeTransparently`, compares keys as given.
extension JSONEncoder.KeyEncodingStrategy {
    /// The strategy, if it changes keys.
    var changingKeys: Self? {
        if case .useDefaultKeys = self { nil } else { self }
    }

    /// `keys`, each a string and, for a key that has one, its integer value, as the strategy
    /// writes them in an object at `path`.
    func forms(of keys: [(String, Int?)], at path: [String]) -> [String] {
        if case .custom(let convert) = self {
            let path = path.map { ForwardedKey(stringValue: $0) }
            return keys.map { convert(path + [ForwardedKey(stringValue: $0, intValue: $1)]).stringValue }
        }
        let keys = keys.map(\.0)
        // No public function says what the other strategies make of a key, but a plain encode of
        // the keys with the strategy shows it: each in an object of its own, in order, written as
        // the spec's part is.
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = self
        let probe = keys.map { SpecWritten(path: [], keys: [$0], values: [.value(0)]) }
        guard let data = try? encoder.encode(probe),
            let objects = try? JSONSerialization.jsonObject(with: data) as? [[String: Int]],
            objects.count == keys.count
        else {
            return keys
        }
        return zip(keys, objects).map { key, object in object.keys.first ?? key }
    }
}
