import Foundation

/// Whether an encoder merges what is written into an object that is opened a second time
/// with what was written there first.
///
/// The spec's part of an object is written after the type's, by opening the object again,
/// wherever the type did not leave the object open for it. Foundation's JSON and property-list
/// encoders merge the two; other coders may replace the first object with the second (Yams
/// does), so for them a dictionary and the spec's part are written as one (see
/// ``MergedDictionary``).
enum ReopenedObjects {
    /// The types of the encoders Foundation's JSON and property-list encoders hand a value, at
    /// the top, inside a container and through a super encoder, found once by encoding a probe.
    private static let mergingEncoderTypes: Set<ObjectIdentifier> = {
        let probe = EncoderTypeProbe()
        _ = try? JSONEncoder().encode(probe)
        _ = try? PropertyListEncoder().encode(probe)
        return probe.seen.value
    }()

    /// Whether `encoder`, or the real encoder that the library's watching encoders wrap, is
    /// one of Foundation's.
    static func areMerged(by encoder: any Encoder) -> Bool {
        var real = encoder
        while true {
            if let observing = real as? ObservingEncoder {
                real = observing.base
            } else if let observer = real as? SpecMergingObserver {
                real = observer.base
            } else {
                break
            }
        }
        return mergingEncoderTypes.contains(ObjectIdentifier(type(of: real)))
    }
}

/// Records the type of every encoder it is handed, and of those it reaches from them.
private struct EncoderTypeProbe: Encodable {
    final class Seen: @unchecked Sendable {
        // Written only while the probe is encoded, once, under the static initializer's lock.
        var value: Set<ObjectIdentifier> = []
    }

    let seen = Seen()
    var depth = 0

    enum Key: String, CodingKey {
        case nested, superEncoded
    }

    func encode(to encoder: any Encoder) throws {
        seen.value.insert(ObjectIdentifier(type(of: encoder)))
        guard depth == 0 else {
            var container = encoder.singleValueContainer()
            try container.encode(0)
            return
        }
        var container = encoder.container(keyedBy: Key.self)
        var inner = self
        inner.depth = 1
        try container.encode(inner, forKey: .nested)
        try inner.encode(to: container.superEncoder(forKey: .superEncoded))
    }
}
