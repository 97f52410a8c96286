/// A property that reads both the shape its type has now and the shape it used to have, and
/// writes only the current one.
///
/// Mark a property `@Migrated` when its type changed but the rest of the document did not: the
/// property's type conforms to ``MigrationTarget`` and says how to build itself from the old
/// shape. The enclosing type keeps its synthesized `Codable` conformance.
///
/// <!-- snippet: houseplant -->
/// ```swift
/// struct Houseplant: Codable, Equatable {
///     var name: String
///     @Migrated var watering: WateringSchedule
/// }
/// ```
///
/// `{"name": "Fern", "watering": {"everyDays": 3, "amountMillilitres": 250}}` and
/// `{"name": "Fern", "watering": 3}`, written when `watering` was a number of days, decode to
/// the same plant.
///
/// Decoding tries the current shape first and the old shape, ``MigrationTarget/Source``,
/// second, so data that fits both is read in the current shape. When neither fits, decoding
/// throws `DecodingError.dataCorrupted` whose context has the property's coding path and, as
/// its `underlyingError`, a ``MigratedDecodingFailure`` with both reasons. An error thrown by
/// ``MigrationTarget/init(migrateFrom:)`` reaches the caller unchanged.
///
/// Encoding writes the value exactly as the property would be written without the wrapper:
/// the document's shape does not change.
///
/// ## Missing keys and null
///
/// Inside a type whose `Codable` conformance is synthesized:
///
/// - If `Value` is optional (`@Migrated var watering: WateringSchedule?`), a missing key or a
///   `null` decodes as `nil`, and `nil` is left out when encoding, as for a plain optional
///   property.
/// - Otherwise, if `Value.Source` is optional, a missing key or a `null` is read as an absent
///   old value: the property is `Value(migrateFrom: nil)`.
/// - Otherwise a missing key throws `DecodingError.keyNotFound`, and a `null` throws the
///   `DecodingError.dataCorrupted` described above.
///
/// The first rule wins when both apply. A `null` that the current shape itself accepts is read
/// in the current shape, before any of these rules.
@propertyWrapper
public struct Migrated<Value> {
    /// The value in its current shape, whichever shape it was read from.
    public var wrappedValue: Value

    /// Wraps a value made in code.
    ///
    /// - Parameter wrappedValue: The value in its current shape.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }
}

extension Migrated: Decodable where Value: Decodable & MigrationTarget {
    /// Reads the value in its current shape, or else in its old shape and migrates it.
    ///
    /// Both attempts read the same single value, so the decoder's strategies (dates, data,
    /// keys) apply to each.
    ///
    /// - Parameter decoder: The decoder positioned at the value.
    /// - Throws: `DecodingError.dataCorrupted` with a ``MigratedDecodingFailure`` when neither
    ///   shape matches, and whatever ``MigrationTarget/init(migrateFrom:)`` throws.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let currentShapeError: any Error
        do {
            self.init(wrappedValue: try container.decode(Value.self))
            return
        } catch {
            currentShapeError = error
        }

        let source: Value.Source
        do {
            source = try container.decode(Value.Source.self)
        } catch {
            let failure = MigratedDecodingFailure(
                currentShape: String(describing: Value.self),
                oldShape: String(describing: Value.Source.self),
                currentShapeError: currentShapeError,
                oldShapeError: error
            )
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: failure.description,
                    underlyingError: failure
                )
            )
        }
        // Outside the `do` so that a migration's own error is not mistaken for a shape mismatch.
        self.init(wrappedValue: try Value(migrateFrom: source))
    }
}

extension Migrated: Encodable where Value: Encodable {
    /// Writes the value in its current shape, as a single value, exactly as `Value` writes
    /// itself.
    ///
    /// - Parameter encoder: The encoder to write to.
    /// - Throws: Whatever encoding `Value` throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension Migrated: Equatable where Value: Equatable {}

extension Migrated: Hashable where Value: Hashable {}

extension Migrated: Sendable where Value: Sendable {}
