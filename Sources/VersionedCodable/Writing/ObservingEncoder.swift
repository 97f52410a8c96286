/// Passes everything through to the real encoder, at a place where the spec writes an object,
/// and tells the ``SpecMergingObserver`` what the value writes there.
struct ObservingEncoder: Encoder {
    let base: any Encoder
    let observer: SpecMergingObserver
    /// What the spec writes at this place.
    let object: SpecObject

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        observer.container(of: base, at: object, keyedBy: type)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        observer.unkeyedContainer(of: base, at: object)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        ObservingSingleValueContainer(base: base.singleValueContainer(), observer: observer, object: object)
    }
}
