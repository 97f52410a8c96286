extension KeyedDecodingContainer {
    /// Decodes a ``Migrated`` property, reading a missing key as the rules of ``Migrated``
    /// say.
    ///
    /// Synthesized `Decodable` conformances call this overload for `@Migrated` properties, so
    /// you rarely call it yourself. A plain `decode` would throw `keyNotFound` for every
    /// missing key, because the property's type, `Migrated<Value>`, is never optional.
    ///
    /// <!-- snippet: repotting -->
    /// ```swift
    /// struct Repotting: Codable, Equatable {
    ///     @Migrated var pot: PotSize  // missing or null: PotSize(migrateFrom: nil)
    ///     @Migrated var previousPot: PotSize?  // missing or null: nil
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The wrapper type to decode.
    ///   - key: The key the property is stored under.
    /// - Returns: The property, read in its current or old shape.
    /// - Throws: `DecodingError.keyNotFound` when the key is missing and neither `Value` nor
    ///   its old shape is optional, and whatever ``Migrated/init(from:)`` throws.
    public func decode<Value: Decodable & MigrationTarget>(
        _ type: Migrated<Value>.Type,
        forKey key: Key
    ) throws -> Migrated<Value> {
        if contains(key) {
            return try decodePresent(type, forKey: key)
        }
        // A missing key stands for `nil` when `Value` is optional, and for the migration of `nil`
        // when the old shape is.
        if let value = nilValue(of: Value.self) {
            return Migrated(wrappedValue: value)
        }
        if let source = nilValue(of: Value.Source.self) {
            return Migrated(wrappedValue: try Value(migrateFrom: source))
        }
        throw DecodingError.keyNotFound(
            key,
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "No value for key \(key.stringValue), in either the current shape "
                    + "(\(Value.self)) or the old one (\(Value.Source.self)), neither of which is optional."
            )
        )
    }

    /// The container's own `decode`: in a context where `T` is only known to be `Decodable`,
    /// the ``Migrated`` overload cannot be chosen, so this does not call itself.
    private func decodePresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decode(type, forKey: key)
    }
}
