import Foundation

/// Types that Foundation's coders read and write in a way of their own (a date by the date
/// strategy, data by the data strategy, a URL as a string, a decimal as a number), which going
/// through another encoder or decoder would change: such a value is recorded whole, and is never
/// an object the spec keeps a version in.
func isCodedSpecially(_ type: Any.Type) -> Bool {
    type == Date.self || type == Data.self || type == URL.self || type == Decimal.self
}

/// Whether values of `type` are the coders' own single values: a container's typed overloads
/// read and write them, so a generic container method that gets one must not hand it back to
/// the value's own `Codable` conformance, which would call it again.
func isSingleValue(_ type: Any.Type) -> Bool {
    type == String.self || type == Bool.self || type is any BinaryInteger.Type || type is any BinaryFloatingPoint.Type
}
