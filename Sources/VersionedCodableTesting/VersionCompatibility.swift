/// Which way versions of a type must stay compatible, in the terms of a schema registry:
/// backward, forward or full, each for the previous version only or for every older one.
///
/// - **Backward**: today's code reads what older code wrote. A sample written as an older
///   version decodes through the chain into the current type, with that version stored.
/// - **Forward**: older code reads what today's code writes for it. A sample written as an
///   older version decodes with that version as the newest type, as the older build decodes
///   it, and what the older build writes back decodes into the current type again.
/// - **Full**: both.
///
/// The transitive modes check every older version in the chain; the others only the previous
/// one, the version that a rolling deploy runs beside the current one.
///
/// The mode is what a test asks of the check. It is not the `ForwardCompatibility` that a
/// version declares in its `compatibility` property, which says what builds of older versions
/// may do with the documents that version writes: the check holds every version to its
/// declaration, whichever the mode.
///
/// See ``VersionedFixtures/checkCompatibility(_:samples:lossless:sourceLocation:)``.
public struct VersionCompatibility: Sendable, Hashable, CustomStringConvertible {
    /// Whether today's type must read documents written as the older versions.
    public var readsOlderVersions: Bool

    /// Whether the older versions must read documents that today's type writes for them.
    public var olderVersionsRead: Bool

    /// Whether every older version is checked, not only the previous one.
    public var isTransitive: Bool

    /// Creates a mode from its three parts; the static members name the usual ones.
    ///
    /// - Parameters:
    ///   - readsOlderVersions: Check backward compatibility.
    ///   - olderVersionsRead: Check forward compatibility.
    ///   - isTransitive: Check every older version, not only the previous one.
    public init(readsOlderVersions: Bool, olderVersionsRead: Bool, isTransitive: Bool) {
        self.readsOlderVersions = readsOlderVersions
        self.olderVersionsRead = olderVersionsRead
        self.isTransitive = isTransitive
    }

    /// Today's type reads what the previous version wrote.
    public static let backward = Self(readsOlderVersions: true, olderVersionsRead: false, isTransitive: false)

    /// Today's type reads what every older version wrote.
    public static let backwardTransitive = Self(readsOlderVersions: true, olderVersionsRead: false, isTransitive: true)

    /// The previous version reads what today's type writes for it.
    public static let forward = Self(readsOlderVersions: false, olderVersionsRead: true, isTransitive: false)

    /// Every older version reads what today's type writes for it.
    public static let forwardTransitive = Self(readsOlderVersions: false, olderVersionsRead: true, isTransitive: true)

    /// Backward and forward with the previous version: what a rolling deploy needs.
    public static let full = Self(readsOlderVersions: true, olderVersionsRead: true, isTransitive: false)

    /// Backward and forward with every older version.
    public static let fullTransitive = Self(readsOlderVersions: true, olderVersionsRead: true, isTransitive: true)

    /// The mode's name, as a schema registry spells it: `FULL_TRANSITIVE`, `BACKWARD`.
    public var description: String {
        let direction: String
        switch (readsOlderVersions, olderVersionsRead) {
        case (true, true): direction = "FULL"
        case (true, false): direction = "BACKWARD"
        case (false, true): direction = "FORWARD"
        case (false, false): direction = "NONE"
        }
        return isTransitive ? direction + "_TRANSITIVE" : direction
    }
}
