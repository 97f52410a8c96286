import Foundation
import Logging
import ServiceLifecycle
import Synchronization
import VersionedCodableStore

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
///
/// Reads upgrade notes through the store library's `UpgradeOnRead`, one reader per value of the
/// setting, each writing back at the versions the setting stores: the note's version is the
/// reader's target, and the attachments' version is in its coder's encoder. A note already at
/// that version whose attachments are below theirs is written back too (`partsBelowTarget`).
package final class FleetSetting: Service, Sendable {
    private let value: Mutex<Int>
    private let store: NoteStore
    private let interval: Duration
    private let readers: [Int: UpgradeOnRead<Note, StoredNoteCoder>]

    /// - Parameters:
    ///   - initial: The setting until the database's is read.
    ///   - store: Where the setting is read from.
    ///   - interval: How often it is read again.
    ///   - writesBackPerSecond: The most notes this instance's reads write back per second;
    ///     more than 0 and finite.
    /// - Throws: `StoreSettingError` for a rate out of its range.
    init(initial: Int, store: NoteStore, interval: Duration, writesBackPerSecond: Double) throws {
        self.value = Mutex(initial)
        self.store = store
        self.interval = interval
        let limit = try WriteBackLimit(perSecond: writesBackPerSecond)
        var readers: [Int: UpgradeOnRead<Note, StoredNoteCoder>] = [:]
        for version in NotesAPI.versions {
            let storage = NotesAPI.storage(whileOldestBuildKnows: version)
            let attachmentVersion = storage.attachmentVersion
            readers[version] = try UpgradeOnRead(
                Note.self,
                to: .version(storage.noteVersion),
                coder: StoredNoteCoder(encoder: storage.encoder),
                sharing: limit,
                partsBelowTarget: { note in
                    note.attachments.contains { ($0.storedVersion ?? 0) < attachmentVersion }
                }
            )
        }
        self.readers = readers
    }

    /// The newest API version all running builds know, as last seen.
    package var readableVersion: Int { value.withLock { $0 } }

    /// How this build stores notes now.
    package var storage: NotesAPI.Storage { NotesAPI.storage(whileOldestBuildKnows: readableVersion) }

    /// The reader that writes notes back at the versions this build stores now.
    var reader: UpgradeOnRead<Note, StoredNoteCoder> {
        readers[min(max(readableVersion, 1), NotesAPI.newestVersion)]!
    }

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
