/// Lets generic code ask whether a type is an `Optional` and make or spot its `nil`, which is
/// how ``Migrated`` handles missing keys for any `Value` without a separate overload for each
/// combination of optional value and optional old shape.
protocol NilRepresentable {
    static var nilValue: Self { get }
    var isNil: Bool { get }
}

extension Optional: NilRepresentable {
    static var nilValue: Self { nil }
    var isNil: Bool { self == nil }
}

/// `nil` as a `T`, when `T` is an `Optional`; otherwise `nil` of `T?`.
private func nilValue<T>(of type: T.Type) -> T? {
    guard let optionalType = type as? any NilRepresentable.Type else { return nil }
    return nilValue(of: optionalType, as: type)
}

private func nilValue<Optional: NilRepresentable, T>(of optionalType: Optional.Type, as type: T.Type) -> T? {
    Optional.nilValue as? T
}

extension Migrated where Value: MigrationTarget {
    /// The value a missing key stands for: `nil` when `Value` is optional, the migration of
    /// `nil` when the old shape is optional, and no value otherwise.
    static func valueForMissingKey() throws -> Value? {
        if let value = nilValue(of: Value.self) {
            return value
        }
        if let source = nilValue(of: Value.Source.self) {
            return try Value(migrateFrom: source)
        }
        return nil
    }
}

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
        if let value = try Migrated<Value>.valueForMissingKey() {
            return Migrated(wrappedValue: value)
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

extension KeyedEncodingContainer {
    /// Encodes a ``Migrated`` property as the bare value would be, leaving out an optional value
    /// that is `nil`.
    ///
    /// Synthesized `Encodable` conformances call this overload for `@Migrated` properties.
    /// Without it, a `nil` optional would be written as `null`, which property lists cannot
    /// hold, where a plain optional property is left out.
    ///
    /// - Parameters:
    ///   - value: The property to encode.
    ///   - key: The key to store it under.
    /// - Throws: Whatever encoding the value throws.
    public mutating func encode<Value: Encodable>(_ value: Migrated<Value>, forKey key: Key) throws {
        if let optional = value.wrappedValue as? any NilRepresentable, optional.isNil {
            return
        }
        // `Value` is only known to be `Encodable` here, so this is the container's own method,
        // the same call a property without the wrapper makes.
        try encode(value.wrappedValue, forKey: key)
    }
}
