import Testing
import VersionedCodable

@Suite("MigrationTarget")
struct MigrationTargetTests {
    struct Refusal: Error, Equatable {}

    struct Level: Equatable, MigrationTarget {
        var value: Int
        init(migrateFrom text: String) throws {
            guard let value = Int(text) else { throw Refusal() }
            self.value = value
        }
    }

    @Test("an optional target's old shape is the optional old shape of its wrapped type")
    func optionalSource() {
        #expect(Optional<Level>.Source.self == String?.self)
        #expect(Optional<PotSize>.Source.self == String??.self)
    }

    @Test("an optional target migrates nil to nil")
    func nilStaysNil() throws {
        #expect(try Level?(migrateFrom: nil) == nil)
    }

    @Test("an optional target migrates a present value as its wrapped type does")
    func presentMigrates() throws {
        #expect(try Level?(migrateFrom: "4") == Level(migrateFrom: "4"))
        #expect(try Level?(migrateFrom: "4")?.value == 4)
    }

    @Test("an optional target passes on its wrapped type's migration error")
    func errorPassesThrough() {
        #expect(throws: Refusal()) { try Level?(migrateFrom: "four") }
    }
}
