/// A single value, kept with its exact type so that it is written as the spec wrote it.
enum SpecValue {
    case null
    case bool(Bool)
    case string(String)
    case double(Double)
    case float(Float)
    case int(Int)
    case int8(Int8)
    case int16(Int16)
    case int32(Int32)
    case int64(Int64)
    case uint(UInt)
    case uint8(UInt8)
    case uint16(UInt16)
    case uint32(UInt32)
    case uint64(UInt64)
    /// A value that is not written as a keyed object (a date, an array, a wrapper around a
    /// single value): written whole, so that the coder's own strategies apply to it.
    case encodable(any Encodable, integer: Int?)

    /// What `value` writes, recorded as one value: a single value, a keyed object or an array
    /// as a recorded one, or `value` itself where the recording keeps it whole (a date, data, a
    /// URL); `nil` when its encoding throws.
    static func recording(_ value: any Encodable) -> SpecValue? {
        guard let node = try? SpecRecordingEncoder.recordNode(of: value, codingPath: [], userInfo: [:]) else {
            return nil
        }
        switch node {
        case .leaf(let leaf):
            return leaf
        case .object(let object):
            return .encodable(RecordedObjectValue(object: object), integer: nil)
        }
    }

    /// ``recording(_:)``, but `nil` for a value that the recording keeps whole.
    private static func recordedFurther(_ value: any Encodable) -> SpecValue? {
        let recorded = recording(value)
        if case .encodable(let kept, _)? = recorded, !(kept is RecordedArray), !(kept is RecordedObjectValue) {
            return nil
        }
        return recorded
    }

    /// Whether the value is an integer of any width.
    var isInteger: Bool {
        switch self {
        case .int, .int8, .int16, .int32, .int64, .uint, .uint8, .uint16, .uint32, .uint64: return true
        case .encodable(_, let integer): return integer != nil
        case .null, .bool, .string, .double, .float: return false
        }
    }

    /// The value as an `Int`, when it is an integer that fits.
    var integer: Int? {
        switch self {
        case .int(let value): return value
        case .int8(let value): return Int(value)
        case .int16(let value): return Int(value)
        case .int32(let value): return Int(value)
        case .int64(let value): return Int(exactly: value)
        case .uint(let value): return Int(exactly: value)
        case .uint8(let value): return Int(value)
        case .uint16(let value): return Int(value)
        case .uint32(let value): return Int(value)
        case .uint64(let value): return Int(exactly: value)
        case .encodable(_, let integer): return integer
        case .null, .bool, .string, .double, .float: return nil
        }
    }

    func write<Key: CodingKey>(to container: inout KeyedEncodingContainer<Key>, forKey key: Key) throws {
        switch self {
        case .null: try container.encodeNil(forKey: key)
        case .bool(let value): try container.encode(value, forKey: key)
        case .string(let value): try container.encode(value, forKey: key)
        case .double(let value): try container.encode(value, forKey: key)
        case .float(let value): try container.encode(value, forKey: key)
        case .int(let value): try container.encode(value, forKey: key)
        case .int8(let value): try container.encode(value, forKey: key)
        case .int16(let value): try container.encode(value, forKey: key)
        case .int32(let value): try container.encode(value, forKey: key)
        case .int64(let value): try container.encode(value, forKey: key)
        case .uint(let value): try container.encode(value, forKey: key)
        case .uint8(let value): try container.encode(value, forKey: key)
        case .uint16(let value): try container.encode(value, forKey: key)
        case .uint32(let value): try container.encode(value, forKey: key)
        case .uint64(let value): try container.encode(value, forKey: key)
        case .encodable(let value, _): try container.encode(value, forKey: key)
        }
    }

    func write(to container: inout any SingleValueEncodingContainer) throws {
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .float(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .int8(let value): try container.encode(value)
        case .int16(let value): try container.encode(value)
        case .int32(let value): try container.encode(value)
        case .int64(let value): try container.encode(value)
        case .uint(let value): try container.encode(value)
        case .uint8(let value): try container.encode(value)
        case .uint16(let value): try container.encode(value)
        case .uint32(let value): try container.encode(value)
        case .uint64(let value): try container.encode(value)
        case .encodable(let value, _): try container.encode(value)
        }
    }

    /// Whether a value the type writes is the same as this one, so that the type may keep a
    /// copy of a spec field (a format name, say) without a clash.
    func isSame(as other: SpecValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.float(let a), .float(let b)): return a == b
        case (.encodable(let a as RecordedArray, _), .encodable(let b as RecordedArray, _)):
            return a.elements.count == b.elements.count && zip(a.elements, b.elements).allSatisfy { $0.isSame(as: $1) }
        case (.encodable(let a as RecordedObjectValue, _), .encodable(let b as RecordedObjectValue, _)):
            return a.object.isSame(as: b.object)
        case (.encodable(let a, nil), .encodable(let b, nil)):
            // Values kept whole (array elements, dates): equal if they are of one `Equatable`
            // type and equal, or if they write the same.
            if let a = a as? any Equatable, a.isEqual(to: b) {
                return true
            }
            guard let a = Self.recordedFurther(a), let b = Self.recordedFurther(b) else {
                return false
            }
            return a.isSame(as: b)
        case (.encodable(let a, nil), _):
            return Self.recordedFurther(a)?.isSame(as: other) ?? false
        case (_, .encodable(let b, nil)):
            return Self.recordedFurther(b).map(isSame(as:)) ?? false
        default:
            if let a = integer, let b = other.integer {
                return a == b
            }
            return false
        }
    }
}

extension Equatable {
    /// Whether `other` is a value of this type equal to this one.
    func isEqual(to other: Any) -> Bool {
        (other as? Self) == self
    }
}
