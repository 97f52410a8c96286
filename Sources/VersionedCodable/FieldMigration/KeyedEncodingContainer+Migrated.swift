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
