/// A key made from a string, for writing the spec's keys into the real coder, or standing for
/// a type's own key where its object is written through ``PlaceEncodingContainer``.
struct PathKey: CodingKey {
    let stringValue: String
    /// `Int.min` stands for no integer value, so that the key fits in an existential's inline
    /// storage (a string and one word) and coding paths that hold it do not allocate.
    private let storedIntValue: Int

    var intValue: Int? { storedIntValue == .min ? nil : storedIntValue }

    init(_ string: String) {
        stringValue = string
        storedIntValue = .min
    }

    /// The same key as `key`, integer value included, which a custom key strategy may use.
    init<Key: CodingKey>(_ key: Key) {
        stringValue = key.stringValue
        storedIntValue = key.intValue ?? .min
    }

    init(stringValue: String) {
        self.init(stringValue)
    }

    /// The default spec's key.
    static let version = PathKey("version")

    init?(intValue: Int) {
        stringValue = String(intValue)
        storedIntValue = intValue
    }
}
