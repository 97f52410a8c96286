import Foundation
import Testing
import VersionedCodableTesting

@Suite("Fixture folder errors")
struct FixtureFolderErrorTests {
    @Test("A missing folder names the folder and how fixtures reach the bundle")
    func missingFolderDescription() {
        let folder = URL(fileURLWithPath: "/somewhere/Fixtures/Recipe", isDirectory: true)
        let text = FixtureFolderError.folderMissing(expected: folder).description
        #expect(text.contains("/somewhere/Fixtures/Recipe"))
        #expect(text.contains(".copy(\"Fixtures\")"))
    }

    @Test("Misnamed files are listed with the names to use instead")
    func unrecognizedNamesDescription() {
        let folder = URL(fileURLWithPath: "/somewhere/Fixtures/Recipe", isDirectory: true)
        let text = FixtureFolderError.unrecognizedFileNames(["V1.json", "old.json"], folder: folder)
            .description
        #expect(text.contains("V1.json, old.json"))
        #expect(text.contains("/somewhere/Fixtures/Recipe"))
        #expect(text.contains("v1-what-it-shows.json"))
    }
}
