/// The version as a versioned value writes it into an encoder that an enclosing versioned
/// value watches, so that the enclosing one sees a second version rather than a mirror of its
/// own.
struct LibraryVersion: Encodable {
    let value: SpecValue

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try value.write(to: &container)
    }
}
