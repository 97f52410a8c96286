import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// The newest API version that every running build knows, which the deploy raises once the last
/// old instance is gone. This build stores each versioned type as the newest version that a
/// build of that API version may read and write back (``NotesAPI/storage(whileOldestBuildKnows:)``),
/// and writes back an upgraded document only to reach those versions.
///
/// A compatible version, such as note version 3, does not wait for the setting: old builds read
/// it and keep what they do not know. The setting holds back the versions old builds cannot
/// read, such as attachment version 2, which renames its fields.
///
/// It lives in the database rather than in each instance's configuration, so that one
/// statement flips it for the whole fleet without a restart; every instance reads it again
/// every `interval`.
package final class FleetSetting: Service, Sendable {
    private let value: Mutex<Int>
    private let store: NoteStore
    private let interval: Duration

    init(initial: Int, store: NoteStore, interval: Duration) {
        self.value = Mutex(initial)
        self.store = store
        self.interval = interval
    }

    /// The newest API version all running builds know, as last seen.
    package var readableVersion: Int { value.withLock { $0 } }

    /// How this build stores notes now.
    package var storage: NotesAPI.Storage { NotesAPI.storage(whileOldestBuildKnows: readableVersion) }

    func set(_ version: Int) {
        value.withLock { $0 = version }
    }

    /// Reads the setting again until the service group shuts down.
    package func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            try? await Task.sleep(for: interval)
            do {
                if let current = try await store.readableVersion() {
                    value.withLock { $0 = current }
                }
            } catch {
                store.logger.warning("Could not read the fleet setting: \(error)")
            }
        }
    }
}
