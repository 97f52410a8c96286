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
