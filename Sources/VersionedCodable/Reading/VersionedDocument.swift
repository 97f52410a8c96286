import Foundation

/// The chain walk of `Value`, compiled in the module that decodes it.
///
/// The coders reach a versioned decode through `Versioned`'s `Decodable` conformance, which
/// this module compiles once for every type, so the walk down the chain runs as generic code,
/// looking each step's types up at run time. `decode(versioned:)` is compiled in the caller's
/// module, which knows the type, so it makes the walk there and hands it to the decode as the
/// decoding configuration of a ``VersionedDocument``.
@usableFromInline
struct ChainWalk<Value: VersionedCodable> {
    @usableFromInline
    let walk: (Int?, any Decoder) throws -> Value

    @inlinable
    init() {
        walk = { try Value.decodeMigrating(storedVersion: $0, from: $1) }
    }
}

/// A versioned document decoded with its chain walk (see ``ChainWalk``).
@available(macOS 14.0, iOS 17.0, watchOS 10.0, tvOS 17.0, *)
@usableFromInline
struct VersionedDocument<Value: VersionedCodable>: DecodableWithConfiguration {
    @usableFromInline
    let versioned: Versioned<Value>

    @inlinable
    init(from decoder: any Decoder, configuration: ChainWalk<Value>) throws {
        versioned = try Value.decodeVersionedPart(from: decoder, walk: configuration.walk)
    }
}
