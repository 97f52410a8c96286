import Foundation
import Testing
import VersionedCodable
import VersionedCodableStore

@Suite("Settings and targets an upgrade cannot work with are refused, never rounded or guessed")
struct UpgradeRefusalTests {
    @Test("Settings below their range or not finite are refused, naming the setting")
    func settingsRefused() throws {
        #expect(throws: StoreSettingError.outOfRange(setting: "batchSize", value: "0", requirement: "at least 1")) {
            try UpgradeSettings(batchSize: 0)
        }
        #expect(throws: StoreSettingError.outOfRange(setting: "batchSize", value: "-5", requirement: "at least 1")) {
            try UpgradeSettings(batchSize: -5)
        }
        #expect(throws: StoreSettingError.outOfRange(setting: "sampleLimit", value: "-1", requirement: "at least 0")) {
            try UpgradeSettings(sampleLimit: -1)
        }
        #expect(
            throws: StoreSettingError.outOfRange(setting: "maximumAttempts", value: "0", requirement: "at least 1")
        ) {
            try UpgradeSettings(maximumAttempts: 0)
        }
        for pause in [-1, Double.nan, .infinity] {
            #expect(throws: StoreSettingError.self) { try UpgradeSettings(pauseBetweenBatches: pause) }
        }
        let error = StoreSettingError.outOfRange(setting: "batchSize", value: "0", requirement: "at least 1")
        #expect("\(error)" == "batchSize is 0, but it must be at least 1.")
    }

    @Test("Settings changed after they were made are checked again by the upgrade")
    func changedSettingsRefused() throws {
        var settings = UpgradeSettings.defaults
        settings.batchSize = 0
        #expect(throws: StoreSettingError.self) {
            try DocumentUpgrade(StoreNote.self, coder: JSONDocumentCoder(), settings: settings)
        }
    }

    @Test("A census refuses a batch size below 1 and a negative sample limit")
    func censusSettingsRefused() {
        #expect(throws: StoreSettingError.self) {
            try DocumentCensus(StoreNote.self, coder: JSONDocumentCoder(), batchSize: 0)
        }
        #expect(throws: StoreSettingError.self) {
            try DocumentCensus(StoreNote.self, coder: JSONDocumentCoder(), sampleLimit: -3)
        }
        #expect(throws: StoreSettingError.self) { try ProblemSample<Int>(limit: -1) }
    }

    @Test("The current version, a numbered version and the unversioned form are three spellings")
    func targets() throws {
        #expect(try DocumentUpgrade(StoreNote.self, coder: JSONDocumentCoder()).targetVersion == 3)
        #expect(try DocumentUpgrade(StoreNote.self, to: .current, coder: JSONDocumentCoder()).targetVersion == 3)
        #expect(try DocumentUpgrade(StoreNote.self, to: .version(2), coder: JSONDocumentCoder()).targetVersion == 2)
        #expect(throws: UpgradeError.targetNotInChain(nil, chain: [1, 2, 3])) {
            try DocumentUpgrade(StoreNote.self, to: .unversioned, coder: JSONDocumentCoder())
        }
        #expect(
            "\(UpgradeError.targetNotInChain(nil, chain: [1, 2, 3]))"
                == "Unversioned is not in the chain, whose versions are v1, v2, v3."
        )
        let legacy = try DocumentUpgrade(NumberedNote.self, to: .unversioned, coder: JSONDocumentCoder())
        #expect(legacy.targetVersion == nil)
        #expect(legacy.checkpointName == "upgrade@unversioned")
        #expect(try DocumentUpgrade(NumberedNote.self, coder: JSONDocumentCoder()).checkpointName == "upgrade@v1")
    }

    @Test("Unversioned documents are upgraded to the current version, and reports call them unversioned")
    func unversionedDocuments() async throws {
        let store = InMemoryDocumentStore<Int>()
        await store.put(try JSONEncoder().encode(LegacyNote(title: "n")), at: 1)
        await store.put(try JSONEncoder().encode(versioned: NumberedNote(title: "m")), at: 2)
        let report = try await DocumentUpgrade(NumberedNote.self, to: .current, coder: JSONDocumentCoder())
            .run(on: store)
        #expect(report.upgraded == 1)
        #expect("\(report)".hasPrefix("examined 2, upgraded 1 to v1 (from unversioned×1), 1 already there"))
        // To the unversioned form, every numbered document is already past the target.
        let back = try await DocumentUpgrade(NumberedNote.self, to: .unversioned, coder: JSONDocumentCoder())
            .run(on: store)
        #expect("\(back)".hasPrefix("examined 2, upgraded 0 to unversioned, 2 already there"))
    }

    @Test("A target no step can reach is refused before the first commit, naming the type")
    func unreachableTarget() async throws {
        let encoder = JSONEncoder()
        var documents = [1: try encoder.encode(versioned: UndowngradableNote(title: "new", lines: []))]
        for key in 2...5 {
            documents[key] = try encoder.encode(versioned: StoreNoteV1(title: "old \(key)", text: "x"))
        }
        let store = InMemoryDocumentStore(documents: documents)
        let upgrade = try DocumentUpgrade(
            UndowngradableNote.self,
            to: .version(3),
            coder: JSONDocumentCoder(),
            settings: .init(batchSize: 1)
        )
        await #expect {
            try await upgrade.run(on: store)
        } throws: { error in
            guard case UpgradeError.targetUnreachable(3, let type, _) = error else { return false }
            return type == "UndowngradableNote" && "\(error)".contains("UndowngradableNote has no downgraded() step")
        }
        #expect(await store.allDocuments == documents)
        #expect(await store.checkpoint(named: "upgrade@v3") == nil)
        // A dry run is refused the same way: it would report what no real run can do.
        let dry = try DocumentUpgrade(
            UndowngradableNote.self,
            to: .version(3),
            coder: JSONDocumentCoder(),
            settings: .init(isDryRun: true)
        )
        await #expect(throws: UpgradeError.self) { try await dry.run(on: store) }
    }
}
