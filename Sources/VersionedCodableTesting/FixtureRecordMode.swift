import Foundation

/// Turns on record mode for fixture checks from the environment.
///
/// When a type gets a new version, its fixture can be written rather than made by hand: run the
/// tests once with record mode on, and ``VersionedFixtures/checkEveryVersionHasFixture(recordingFrom:sourceLocation:)``
/// writes the current version's fixture from its sample value into the source tree. Review the
/// new file and commit it.
///
/// ```sh
/// VERSIONED_CODABLE_RECORD=1 swift test
/// ```
///
/// Record mode only adds the current version's fixture when it is missing. It never changes a
/// file that exists, and it never writes older versions: their fixtures must be documents the
/// older code really wrote.
public enum FixtureRecordMode {
    /// The environment variable that turns record mode on when it is `1`.
    public static let environmentVariable = "VERSIONED_CODABLE_RECORD"

    /// Whether an environment asks for record mode.
    ///
    /// - Parameter environment: The environment to look in; the process's by default.
    /// - Returns: `true` when ``environmentVariable`` is `1`.
    public static func isOn(in environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        environment[environmentVariable] == "1"
    }
}
