/// Lets generic code ask whether a type is an `Optional` and make or spot its `nil`, which is
/// how ``Migrated`` handles missing keys for any `Value` without a separate overload for each
/// combination of optional value and optional old shape.
protocol NilRepresentable {
    static var nilValue: Self { get }
    var isNil: Bool { get }
    /// The type an optional holds.
    static var wrappedType: Any.Type { get }
}

extension Optional: NilRepresentable {
    static var nilValue: Self { nil }
    var isNil: Bool { self == nil }
    static var wrappedType: Any.Type { Wrapped.self }
}

/// The type inside any number of optionals: `Int` for `Int??`.
func innermostWrappedType(of type: Any.Type) -> Any.Type {
    guard let optional = type as? any NilRepresentable.Type else {
        return type
    }
    return innermostWrappedType(of: optional.wrappedType)
}

/// `nil` as a `T`, when `T` is an `Optional`; otherwise `nil` of `T?`.
func nilValue<T>(of type: T.Type) -> T? {
    (type as? any NilRepresentable.Type)?.nilValue as? T
}
