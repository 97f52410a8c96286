/// A type that can be built from the shape one of its fields used to have, so that a property
/// of this type can be marked ``Migrated``.
///
/// Conform the field's current type, name the type it used to be stored as in ``Source``, and
/// say how to convert it in ``init(migrateFrom:)``. A ``Migrated`` property then reads documents
/// written in either shape and always writes the current one.
///
/// <!-- snippet: watering-schedule -->
/// ```swift
/// struct WateringSchedule: Codable, Hashable, MigrationTarget {
///     var everyDays: Int
///     var amountMillilitres: Int
///
///     init(everyDays: Int, amountMillilitres: Int) {
///         self.everyDays = everyDays
///         self.amountMillilitres = amountMillilitres
///     }
///
///     // Until the schedule grew an amount, documents held only the number of days.
///     init(migrateFrom everyDays: Int) {
///         self.init(everyDays: everyDays, amountMillilitres: 250)
///     }
/// }
/// ```
///
/// When the old shape could be missing from a document, make ``Source`` optional and decide
/// what a missing value becomes: a ``Migrated`` property migrates from `nil` when its key is
/// missing or `null`.
public protocol MigrationTarget {
    /// The shape the value was stored in before this type replaced it.
    associatedtype Source: Decodable

    /// Creates the current value from a value read in the old shape.
    ///
    /// Throw when the old value has no place in the new model; the error reaches the caller of
    /// the decode call unchanged. ``VersionedDecodingError/fieldNoLongerValid(_:)`` says so in
    /// the library's own terms.
    ///
    /// - Parameter source: The value as it was read from the document in the old shape.
    /// - Throws: Any error that says the old value cannot be migrated.
    init(migrateFrom source: Source) throws
}

/// An optional migration target migrates from an optional old shape: `nil` stays `nil`, any
/// other value migrates as `Wrapped` does.
///
/// This is what lets a property be declared `@Migrated var schedule: WateringSchedule?`.
extension Optional: MigrationTarget where Wrapped: MigrationTarget {
    /// The old shape of `Wrapped`, which may also be absent.
    public typealias Source = Wrapped.Source?

    /// Migrates a present old value with `Wrapped`'s own migration; an absent one stays absent.
    ///
    /// - Parameter source: The old value, or `nil`.
    /// - Throws: Whatever `Wrapped`'s ``MigrationTarget/init(migrateFrom:)`` throws.
    public init(migrateFrom source: Wrapped.Source?) throws {
        self = try source.map(Wrapped.init(migrateFrom:))
    }
}
