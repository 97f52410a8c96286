import Foundation

/// A value of a field that an older build did not read, kept as the coder read it so that it
/// is written back as it came: JSON's and property lists' kinds of value.
///
/// Not `indirect`: a kept array or object already holds its values in its own storage, so a box
/// around each value would only cost an allocation and its memory.
enum UnknownValue: Codable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case unsigned(UInt64)
    case double(Double)
    case decimal(Decimal)
    case string(String)
    case date(Date)
    case data(Data)
    case array([UnknownValue])
    /// An object's fields, as a list: a dictionary's table takes twice the memory, and is built
    /// only while the object is written.
    case object([(key: String, value: UnknownValue)])

    init(from decoder: any Decoder) throws {
        // A coder tells what kind a value is only by failing to read it as another kind, and each
        // failure costs it a thrown error, so the kinds are tried from the most common leaves (a
        // string, a number, a bool), whose reading costs most when it misses; an array's or an
        // object's values pay for its misses. A property list's date or data comes last.
        //
        // This frame is on the stack once for every level of a nested value, so what it does not
        // need on the way down is done in functions of their own: a debug build keeps a slot for
        // every local of a function.
        let single = try decoder.singleValueContainer()
        if let value = try Self.leafOrArray(single, at: decoder) {
            self = value
            return
        }
        do {
            // Read as a `[String: …]`, whose keys the coders leave as they are under a key
            // strategy, and written back the same way.
            self = .object(Array(try single.decode([String: UnknownValue].self)))
        } catch let error where Self.isAboutItself(error, depth: decoder.codingPath.count) {
            // Not an object; an error from a value inside one is thrown as it is.
            self = try Self.dateOrData(single, at: decoder)
        }
    }

    /// A string, number, bool, `null` or array, if the value is one.
    private static func leafOrArray(_ single: any SingleValueDecodingContainer, at decoder: any Decoder) throws -> Self?
    {
        if single.decodeNil() {
            return .null
        }
        if let value = try? single.decode(String.self) {
            return .string(value)
        }
        if let value = try? single.decode(Double.self) {
            return try number(value, in: single, at: decoder)
        }
        if let value = try? single.decode(Bool.self) {
            return .bool(value)
        }
        // A value nested without limit would cost the coder time for every level and the stack
        // a frame, so kept arrays and objects nest no deeper than versioned parts may.
        let codingPath = decoder.codingPath
        if codingPath.count > maximumVersionedPartDepth {
            throw cannotKeep(
                codingPath,
                because: "it nests more than \(maximumVersionedPartDepth) keys and indexes deep in the document"
            )
        }
        guard var array = try? decoder.unkeyedContainer() else {
            return nil
        }
        return .array(try elements(of: &array) { showsKeysAsWritten(decoder, strategy: "keyDecodingStrategy") })
    }

    /// A property list's date or data.
    private static func dateOrData(_ single: any SingleValueDecodingContainer, at decoder: any Decoder) throws -> Self {
        if let value = try? single.decode(Date.self) {
            return .date(value)
        }
        if let value = try? single.decode(Data.self) {
            return .data(value)
        }
        throw cannotKeep(decoder.codingPath, because: "no Swift number or other kind of value holds it")
    }

    /// The elements of `array`.
    ///
    /// Records are the bulk of most documents, so once an array has shown an object, each field
    /// of the objects after it is read first as the kind of value it last held, which spares the
    /// coder's thrown errors for the kinds a value is not. In JSON and property lists a value is
    /// of one kind only, so the order of the tries changes nothing that is kept. Such an object is
    /// read through a keyed container, whose keys a decoder shows through its key strategy, so
    /// this is done only where `keysAsWritten` says they are shown as written: then the decoder is
    /// JSON's or a property list's, which leave an element that is not an object where it was.
    static func elements(
        of array: inout any UnkeyedDecodingContainer,
        keysAsWritten: () -> Bool
    ) throws -> [UnknownValue] {
        var elements: [UnknownValue] = []
        elements.reserveCapacity(array.count ?? 0)
        // The last value of each field of the objects, once one has shown that keys read as written.
        var last: [String: UnknownValue]?
        var keysChecked = false
        while !array.isAtEnd {
            if last != nil, let object = try? array.nestedContainer(keyedBy: ForwardedKey.self) {
                elements.append(
                    .object(
                        try object.allKeys.map { key in
                            let value = try read(key, in: object, like: last![key.stringValue])
                            last![key.stringValue] = value
                            return (key.stringValue, value)
                        }
                    )
                )
                continue
            }
            let element = try array.decode(UnknownValue.self)
            if !keysChecked, case .object = element, array.count ?? 0 >= minimumRecords {
                keysChecked = true
                last = keysAsWritten() ? [:] : nil
            }
            elements.append(element)
        }
        return elements
    }

    /// Whether a decoder or an encoder shows a keyed container's keys as written: the property
    /// lists' own coders, which have no key strategy, and JSON's own without one (`strategy`
    /// names its option).
    ///
    /// A coder applies its key strategy to every keyed container, and the Codable API says
    /// nothing of the strategy, so JSON's coders' options are read by reflection, which costs
    /// about 100,000 instructions: it is asked only of JSON's own coders, and only for an array
    /// of ``minimumRecords`` elements or more. A coder whose options say otherwise, or are not
    /// found there, is taken to change keys.
    static func showsKeysAsWritten(_ coder: Any, strategy: String) -> Bool {
        let type = ObjectIdentifier(Swift.type(of: coder))
        return coderTypes.propertyList.contains(type)
            || coderTypes.json.contains(type)
                && Mirror(reflecting: coder).descendant("options", strategy).map { "\($0)" } == "useDefaultKeys"
    }

    /// The fewest elements for which an array's records are read and written by kinds.
    static let minimumRecords = 8

    /// The types of JSON's and the property lists' own decoders and encoders, found once by
    /// coding with them.
    private static let coderTypes: (json: Set<ObjectIdentifier>, propertyList: Set<ObjectIdentifier>) = {
        final class CoderType: Codable {
            var type: ObjectIdentifier?
            init() {}
            init(from decoder: any Decoder) { type = ObjectIdentifier(Swift.type(of: decoder)) }
            func encode(to encoder: any Encoder) throws {
                type = ObjectIdentifier(Swift.type(of: encoder))
                var container = encoder.singleValueContainer()
                try container.encode(0)
            }
        }
        // Each in an array, as kept values are below the root, and property lists have no other
        // values at their root.
        func types(_ encode: ([CoderType]) throws -> Data, _ decode: (Data) throws -> [CoderType]) -> [ObjectIdentifier]
        {
            let encoded = CoderType()
            let decoded = (try? encode([encoded])).flatMap { try? decode($0) }
            return [encoded.type, decoded?.first?.type].compactMap { $0 }
        }
        let binary = PropertyListEncoder()
        binary.outputFormat = .binary
        let xml = PropertyListEncoder()
        xml.outputFormat = .xml
        let plist = PropertyListDecoder()
        return (
            Set(types({ try JSONEncoder().encode($0) }, { try JSONDecoder().decode([CoderType].self, from: $0) })),
            Set(
                types({ try binary.encode($0) }, { try plist.decode([CoderType].self, from: $0) })
                    + types({ try xml.encode($0) }, { try plist.decode([CoderType].self, from: $0) })
            )
        )
    }()

    /// The value at `key`, tried first as the kind of `last`.
    private static func read(
        _ key: ForwardedKey,
        in object: KeyedDecodingContainer<ForwardedKey>,
        like last: UnknownValue?
    ) throws -> UnknownValue {
        switch last {
        case .string: if let value = try? object.decode(String.self, forKey: key) { return .string(value) }
        case .integer, .unsigned, .double, .decimal:
            if let number = try? object.decode(KeptNumber.self, forKey: key) { return number.value }
        case .bool: if let value = try? object.decode(Bool.self, forKey: key) { return .bool(value) }
        case .array:
            // Its depth is not checked: its objects are read by kinds only after one read as any
            // kept value is, which checks it.
            if var array = try? object.nestedUnkeyedContainer(forKey: key) {
                return .array(try elements(of: &array) { true })
            }
        case .object:
            // An error from a value inside is thrown as it is: reading the object again would
            // read again all that it holds, at every level.
            do {
                return .object(Array(try object.decode([String: UnknownValue].self, forKey: key)))
            } catch let error where isAboutItself(error, depth: object.codingPath.count + 1) {}
        default: break
        }
        return try object.decode(UnknownValue.self, forKey: key)
    }

    /// A number, kept as the kind that holds it exactly: JSONDecoder gives the digits of a number
    /// as a `Decimal`, to 38 of them; a property list holds integers and doubles only, and gives
    /// no `Decimal`.
    private static func number(
        _ double: Double,
        in single: any SingleValueDecodingContainer,
        at decoder: any Decoder
    ) throws -> UnknownValue {
        guard let decimal = try? single.decode(Decimal.self) else {
            // JSONDecoder gives a `Decimal` of every number but those beyond its exponents, whose
            // digits a `Double` may not hold.
            if coderTypes.json.contains(ObjectIdentifier(type(of: decoder))) {
                throw cannotKeep(decoder.codingPath, because: "its exponent is beyond what a Decimal holds")
            }
            if double.rounded() == double, double >= -0x1p63, double < 0x1p63,
                let whole = try? single.decode(Int64.self)
            {
                return .integer(whole)
            }
            if double.rounded() == double, double >= 0x1p63, let whole = try? single.decode(UInt64.self) {
                return .unsigned(whole)
            }
            return .double(double)
        }
        // The coder keeps at most 38 or 39 digits and drops the rest, so a number that fills
        // them may have lost some.
        if decimal.significand >= Self.fullDigits {
            throw cannotKeep(
                decoder.codingPath,
                because: "it has 38 digits or more, and JSONDecoder reads no more than 38 or 39"
            )
        }
        if decimal.exponent >= 0 {
            // A whole number, which the integer kinds hold exactly where it fits them ("1.0" too,
            // which reads as 1, and "1e5"); below 2⁵³ the `Double` holds it exactly already.
            if double.magnitude < 0x1p53 {
                return .integer(Int64(double))
            }
            if double >= -0x1p63, double < 0x1p63, let whole = try? single.decode(Int64.self), Decimal(whole) == decimal
            {
                return .integer(whole)
            }
            if double >= 0x1p63, let whole = try? single.decode(UInt64.self), Decimal(whole) == decimal {
                return .unsigned(whole)
            }
            return .decimal(decimal)
        }
        // A fraction that the `Double` writes back as the same number, or else its digits. A
        // `Double` of the normal range tells apart every number of 15 digits or fewer, so it
        // writes such a number back as it came.
        if double.isNormal, decimal.significand < Self.sixteenDigits {
            return .double(double)
        }
        return Decimal(string: "\(double)") == decimal ? .double(double) : .decimal(decimal)
    }

    /// A value read as a number first. A string that a non-conforming float strategy reads as
    /// infinite or NaN is not one: it is kept as the string it is.
    private struct KeptNumber: Decodable {
        let value: UnknownValue
        init(from decoder: any Decoder) throws {
            let single = try decoder.singleValueContainer()
            let double = try single.decode(Double.self)
            guard double.isFinite else { throw cannotKeep(decoder.codingPath, because: "not finite") }
            value = try number(double, in: single, at: decoder)
        }
    }

    /// Whether `error` is about the value at `depth` itself, such as a coder's word that it is not
    /// of the kind asked for, rather than about a value inside it.
    private static func isAboutItself(_ error: any Error, depth: Int) -> Bool {
        switch error as? DecodingError {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            context.codingPath.count == depth
        default: false
        }
    }

    /// The least numbers of 38 digits and of 16.
    private static let fullDigits = Decimal(sign: .plus, exponent: 37, significand: 1)
    private static let sixteenDigits = Decimal(sign: .plus, exponent: 15, significand: 1)

    /// The error for a kept value that cannot be written back as it came, naming its field.
    private static func cannotKeep(_ codingPath: [any CodingKey], because reason: String) -> DecodingError {
        DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "\(describePath(codingPath)), a field this build does not know, holds a value it "
                    + "cannot keep to write back as it came: \(reason)."
            )
        )
    }

    func encode(to encoder: any Encoder) throws {
        // As in reading, this frame is on the stack once for every level of a nested value, so
        // each kind is written in a function of its own.
        switch self {
        case .array(let elements):
            try Self.write(elements, to: encoder) { Self.showsKeysAsWritten(encoder, strategy: "keyEncodingStrategy") }
        case .object(let fields):
            try Self.write(fields, to: encoder)
        default:
            try encodeLeaf(to: encoder)
        }
    }

    /// Writes an object's fields as a `[String: …]`, whose keys the coders write as they are
    /// under a key strategy.
    private static func write(_ fields: [(key: String, value: UnknownValue)], to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Dictionary(uniqueKeysWithValues: fields))
    }

    /// Writes a value that holds no other, through the container's own method for its kind,
    /// the coder's fast path.
    private func encodeLeaf(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .unsigned(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .decimal(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .date(let value): try container.encode(value)
        case .data(let value): try container.encode(value)
        case .array, .object: break
        }
    }

    /// Writes `elements`: the objects among them as a type writes its fields, where
    /// `keysAsWritten` says the encoder writes keys as given, which spares a dictionary and an
    /// encoder for every field.
    private static func write(_ elements: [UnknownValue], to encoder: any Encoder, keysAsWritten: () -> Bool) throws {
        var container = encoder.unkeyedContainer()
        lazy var asWritten = elements.count >= minimumRecords && keysAsWritten()
        for element in elements {
            if case .object(let fields) = element, asWritten {
                try container.encode(Fields(fields: fields))
            } else {
                try container.encode(element)
            }
        }
    }

    /// An object's fields, written as a type writes its own.
    private struct Fields: Encodable {
        let fields: [(key: String, value: UnknownValue)]

        func encode(to encoder: any Encoder) throws {
            var object = encoder.container(keyedBy: ForwardedKey.self)
            for (key, value) in fields {
                let key = ForwardedKey(stringValue: key)
                switch value {
                case .null: try object.encodeNil(forKey: key)
                case .bool(let value): try object.encode(value, forKey: key)
                case .integer(let value): try object.encode(value, forKey: key)
                case .unsigned(let value): try object.encode(value, forKey: key)
                case .double(let value): try object.encode(value, forKey: key)
                case .string(let value): try object.encode(value, forKey: key)
                case .array(let elements): try object.encode(Elements(elements: elements), forKey: key)
                case .decimal, .date, .data, .object: try object.encode(value, forKey: key)
                }
            }
        }
    }

    /// An array in an object written by ``Fields``, whose encoder writes keys as given.
    private struct Elements: Encodable {
        let elements: [UnknownValue]

        func encode(to encoder: any Encoder) throws {
            try write(elements, to: encoder) { true }
        }
    }
}
