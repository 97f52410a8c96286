import Foundation

/// What a coder hands the values it writes, learnt once through its public API: the type of each
/// encoder the probe is written to, and of the key its first encoder has last in its coding path.
///
/// It writes itself inside a keyed and an unkeyed container and through a super encoder, two
/// levels deep, so that it meets the encoders a coder uses at every kind of place.
final class EncoderProbe: Encodable {
    private(set) var encoderTypes: Set<ObjectIdentifier> = []
    /// The key type last on the first encoder's coding path: an entry's, where the probe is a
    /// dictionary's value.
    private(set) var firstKeyType: ObjectIdentifier?
    private var depth = 0

    func encode(to encoder: any Encoder) throws {
        if encoderTypes.isEmpty {
            firstKeyType = encoder.codingPath.last.map { ObjectIdentifier(type(of: $0)) }
        }
        encoderTypes.insert(ObjectIdentifier(type(of: encoder)))
        guard depth < 2 else { return }
        depth += 1
        defer { depth -= 1 }
        var keyed = encoder.container(keyedBy: ForwardedKey.self)
        try keyed.encode(self, forKey: ForwardedKey(stringValue: "keyed"))
        var unkeyed = keyed.nestedUnkeyedContainer(forKey: ForwardedKey(stringValue: "unkeyed"))
        try unkeyed.encode(self)
        try encode(to: keyed.superEncoder(forKey: ForwardedKey(stringValue: "super")))
    }
}

extension EncoderProbe {
    /// The types of the encoders Foundation's coders hand a value, at the root and inside
    /// containers, learnt once by encoding a probe through their public API: PropertyListEncoder's
    /// in both its formats (each has types of its own), and these with JSONEncoder's.
    static let foundationTypes: (propertyList: Set<ObjectIdentifier>, all: Set<ObjectIdentifier>) = {
        let probe = EncoderProbe()
        let encoder = PropertyListEncoder()
        for format in [PropertyListSerialization.PropertyListFormat.binary, .xml] {
            encoder.outputFormat = format
            _ = try? encoder.encode(probe)
        }
        let propertyList = probe.encoderTypes
        _ = try? JSONEncoder().encode(probe)
        return (propertyList, probe.encoderTypes)
    }()
}
