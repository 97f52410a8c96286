import Foundation
import Logging
import ServiceLifecycle
import Synchronization

/// The newest version that every running build reads, which the deploy raises once the last
/// old instance is gone. This build writes `min(its newest version, the setting)`, and writes
/// back an upgraded document only when the setting allows the newer version.
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

    /// The newest version all running builds read, as last seen.
    package var readableVersion: Int { value.withLock { $0 } }

    /// The version this build writes documents as.
    package var writeVersion: Int { min(NotesAPI.newestVersion, readableVersion) }

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
