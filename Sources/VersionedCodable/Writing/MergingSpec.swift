/// A value the type writes where the spec writes an object, wrapped so that the spec's part of
/// that object is merged in while its encoder is still open.
///
/// Merging there, rather than by opening the same object again from the root afterwards, is
/// what lets coders that build each object when its encoder is released (Yams, XMLCoder) keep
/// both the type's fields and the spec's.
struct MergingSpec<Value: Encodable>: Encodable {
    let value: Value
    let observer: SpecMergingObserver
    let object: SpecObject

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: ObservingEncoder(base: encoder, observer: observer, object: object))
        if observer.isClear {
            try observer.writeRemaining(into: encoder, at: object)
        }
    }
}
