/// A key made from a string, for writing the spec's keys into the real coder, or standing for
/// a type's own key where its object is written through ``PlaceEncodingContainer``: the shared
/// root's key type, so that coding paths read the same whether a document is read or written.
typealias PathKey = ForwardedKey

extension SharedRootKey.CodingKeys {
    init(_ string: String) {
        self.init(stringValue: string)
    }

    /// The default spec's key.
    static let version = PathKey("version")
}
