/// The keys of the containers the library opens.
///
/// Named `CodingKeys` and printed the way synthesized keys print, so that a coding path that
/// passes through a versioned part reads as it would without versioning. It fits in an
/// existential's inline storage (a string and one word), so decoders that keep keys in coding
/// paths do not allocate for it.
@usableFromInline
internal struct CodingKeys: CodingKey {
    @usableFromInline
    let stringValue: String
    /// `Int.min` stands for no integer value, to keep the key within three words.
    private let storedIntValue: Int

    @usableFromInline
    var intValue: Int? { storedIntValue == .min ? nil : storedIntValue }

    @inline(__always)
    init<Key: CodingKey>(_ key: Key) {
        stringValue = key.stringValue
        storedIntValue = key.intValue ?? .min
    }

    @usableFromInline
    init(stringValue: String) {
        self.stringValue = stringValue
        storedIntValue = .min
    }

    init(stringValue: String, intValue: Int?) {
        self.stringValue = stringValue
        storedIntValue = intValue ?? .min
    }

    @usableFromInline
    init?(intValue: Int) {
        stringValue = String(intValue)
        storedIntValue = intValue
    }
}

@usableFromInline
internal typealias ForwardedKey = CodingKeys
