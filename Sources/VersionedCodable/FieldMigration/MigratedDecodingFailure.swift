import Foundation

/// Why a ``Migrated`` value could not be read: the data matched neither the current shape nor
/// the old one.
///
/// It is the `underlyingError` of the `DecodingError.dataCorrupted` that decoding throws, so
/// that both reasons are at hand:
///
/// <!-- snippet: migrated-decoding-failure -->
/// ```swift
/// do {
///     _ = try JSONDecoder().decode(Houseplant.self, from: data)
/// } catch DecodingError.dataCorrupted(let context) {
///     if let failure = context.underlyingError as? MigratedDecodingFailure {
///         problems.append("now: \(failure.currentShapeError); before: \(failure.oldShapeError)")
///     }
/// }
/// ```
public struct MigratedDecodingFailure: Error {
    /// The name of the type the field has now, which the data was read as first.
    public let currentShape: String

    /// The name of the type the field used to have, which the data was read as second.
    public let oldShape: String

    /// Why the data could not be read in the current shape.
    public let currentShapeError: any Error

    /// Why the data could not be read in the old shape.
    public let oldShapeError: any Error

    /// Records both attempts at reading a field.
    ///
    /// - Parameters:
    ///   - currentShape: The name of the field's current type.
    ///   - oldShape: The name of the field's old type.
    ///   - currentShapeError: The error that decoding the current type threw.
    ///   - oldShapeError: The error that decoding the old type threw.
    public init(
        currentShape: String,
        oldShape: String,
        currentShapeError: any Error,
        oldShapeError: any Error
    ) {
        self.currentShape = currentShape
        self.oldShape = oldShape
        self.currentShapeError = currentShapeError
        self.oldShapeError = oldShapeError
    }
}

extension MigratedDecodingFailure: CustomStringConvertible, LocalizedError {
    /// A sentence naming both shapes and why each of them failed.
    public var description: String {
        "The value matches neither its current shape nor its old one. "
            + "As \(currentShape): \(Self.describe(currentShapeError)). "
            + "As \(oldShape) (the old shape): \(Self.describe(oldShapeError))."
    }

    /// The same text as ``description``.
    public var errorDescription: String? { description }

    /// `DecodingError`'s own description is a dump of the enum; its debug description is the
    /// part written for people. A final full stop is dropped, as the sentence adds its own.
    private static func describe(_ error: any Error) -> String {
        let text = sentence(for: error)
        return text.hasSuffix(".") ? String(text.dropLast()) : text
    }

    private static func sentence(for error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
            DecodingError.keyNotFound(_, let context), DecodingError.dataCorrupted(let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(context.debugDescription) (at \(path))"
        default:
            return String(describing: error)
        }
    }
}
