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
