/// A type read from one raw value that lists every raw value its `init(from:)` accepts, so that
/// its schema can name them.
///
/// The derivation cannot enumerate the values a type reads from a single value: it can only run
/// the type's code with a value and see whether it is accepted. It lists the raw values of an
/// enum that is `CaseIterable` with `String` or `Int` raw values. Conform a type to this
/// protocol instead when it cannot or should not be `CaseIterable`, such as an enum whose
/// hand-written `init(from:)` also accepts an older spelling, or a public enum whose cases you
/// do not want to promise as `allCases`:
///
/// <!-- snippet: schema-raw-values -->
/// ```swift
/// extension Weather: SchemaRawValues {
///     static var schemaRawValues: [JSONValue] { [.string("sun"), .string("rain"), .string("sunny")] }
/// }
/// ```
///
/// Each listed value is handed to the type's own `init(from:)` on the recording decoder, and
/// only the values it accepts become the schema's `enum`; a listed value it refuses is named in
/// the schema's `description`. A value the code accepts but the list leaves out cannot be seen:
/// the list is the type's promise, so list every value a stored document may hold.
///
/// A type that conforms to this protocol and is also `CaseIterable` is listed by this
/// protocol.
public protocol SchemaRawValues {
    /// Every raw value the type's `init(from:)` accepts: strings or numbers.
    static var schemaRawValues: [JSONValue] { get }
}
