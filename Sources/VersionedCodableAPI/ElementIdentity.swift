/// How a merge tells which stored element an element of an edited array is.
///
/// An old client's edit of an array is merged element by element: each element it sends takes
/// the fields it could not see from the stored element it shows to be the same one. Elements
/// that carry an identity the client sees (an `id` member, unless you name another) are matched
/// by it, wherever they moved: the client may remove, insert, reorder and edit them in one
/// edit. Elements without one are matched only where that cannot be mistaken (see
/// ``APIVersions/merge(_:at:into:)``).
///
/// <!-- snippet: element-identity -->
/// ```swift
/// let identity = ElementIdentity.member("id")
///     .identifying(elementsOf: "columns.cards", by: "slug")
///     .identifying(elementsOf: "history", by: nil)
/// ```
///
/// An array is named by its path in the current type's JSON, its keys as the type's
/// `CodingKeys` name them, without indexes: `tasks`, or `columns.cards` for the `cards` of
/// every element of `columns`.
public struct ElementIdentity: Sendable, Hashable {
    private var member: String?
    private var arrays: [String: String?] = [:]

    /// Elements identified by the member `name` wherever they have it.
    ///
    /// - Parameter name: The member, as the element's type writes it (`id`).
    /// - Returns: The identity.
    public static func member(_ name: String) -> ElementIdentity {
        ElementIdentity(member: name)
    }

    /// No element has an identity: every array is merged by the rules for elements without one.
    public static let none = ElementIdentity(member: nil)

    /// This identity, with the elements of the array at `path` identified by `member` instead;
    /// `nil` for none.
    ///
    /// - Parameters:
    ///   - path: The array's path in the current type's JSON, without indexes: `columns.cards`.
    ///   - member: The member that identifies its elements, or `nil` when nothing does.
    /// - Returns: A copy of this identity with the array's member set.
    public func identifying(elementsOf path: String, by member: String?) -> ElementIdentity {
        var copy = self
        copy.arrays[path] = .some(member)
        return copy
    }

    /// The member that identifies the elements of the array at `path`, if any.
    func member(forArrayAt path: String) -> String? {
        arrays[path] ?? member
    }
}
