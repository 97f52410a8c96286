import Foundation

/// The one rule for a value at a key of an object where a spec reads or writes (the root, or
/// `_metadata` under a `_metadata.version` spec): pass it on as it is, apply the dictionary
/// rule, or follow it into the spec's object below that key.
///
/// Reading the spec, reading the type, recording the spec and writing the type all ask it;
/// each then does what the answer means for it.
enum Route {
    /// The coder's own single values and specially coded values (dates, data, URLs, decimals),
    /// and any value where the spec has no object: the real container reads or writes it.
    case pass
    /// A dictionary, whose keys come from data: the spec's keys are not among its entries.
    case dictionary
    /// Any other value where the spec has an object: read or written through the place.
    case follow

    /// The route of a value of `type` at a key where `hasPlace()` says whether the spec has an
    /// object, asked only when the value could be one.
    @inline(__always)
    init(_ type: Any.Type, hasPlace: () -> Bool) {
        if isSingleValue(type) || isCodedSpecially(type) || !hasPlace() {
            self = .pass
        } else {
            self = type is any DictionaryAtPlace.Type ? .dictionary : .follow
        }
    }
}

/// Types that Foundation's coders read and write in a way of their own (a date by the date
/// strategy, data by the data strategy, a URL as a string, a decimal as a number), which going
/// through another encoder or decoder would change.
func isCodedSpecially(_ type: Any.Type) -> Bool {
    type == Date.self || type == Data.self || type == URL.self || type == Decimal.self
}

/// Whether values of `type` are the coders' own single values: a container's typed overloads
/// read and write them, so a generic container method that gets one must not hand it back to
/// the value's own `Codable` conformance, which would call it again.
func isSingleValue(_ type: Any.Type) -> Bool {
    // The common types first: a conformance check costs more than a comparison.
    type == String.self || type == Int.self || type == Bool.self || type == Double.self
        || type is any BinaryInteger.Type || type is any BinaryFloatingPoint.Type
}

/// Whether the values a keyed container writes are the entries of a Swift `Dictionary` that the
/// type hands its encoder to (`try counts.encode(to: encoder)`), rather than the type's own
/// fields: Swift's dictionary opens every keyed container it writes with a key type of its own,
/// which nothing else uses.
///
/// Asked only of a value written under a key the spec writes, where an entry is refused (it
/// would be lost) and a field is a mirror of the version or a clash. Every other key type's
/// values, an open one that accepts any string included, are the type's own.
func writesDictionaryEntries<Key: CodingKey>(_ type: Key.Type) -> Bool {
    ObjectIdentifier(Key.self) == dictionaryKeyType
}

/// The key type Swift's dictionary writes its entries with, found once by watching one encode:
/// an entry's encoder has the entry's key last in its coding path.
private let dictionaryKeyType: ObjectIdentifier = {
    let probe = EncoderProbe()
    // Integer keys, which every coder writes through the dictionary's own encoding.
    _ = try? JSONEncoder().encode([0: probe])
    return probe.firstKeyType ?? ObjectIdentifier(Never.self)
}()
