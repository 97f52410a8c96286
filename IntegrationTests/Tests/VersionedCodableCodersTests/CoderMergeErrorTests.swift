import Testing
import VersionedCodableCoders

@Suite("CoderMergeError")
struct CoderMergeErrorTests {
    @Test("Each description names the coder and what was lost or could not be read")
    func descriptions() {
        let dropped = CoderMergeError.coderDroppedFields(
            coder: "YAMLEncoder",
            paths: ["_metadata.editor", "_metadata.at"]
        )
        #expect(dropped.description.contains("YAMLEncoder dropped _metadata.editor, _metadata.at"))
        let unreadable = CoderMergeError.versionNotReadable(coder: "XMLEncoder", expected: 4, found: nil)
        #expect(unreadable.description.contains("XMLEncoder wrote version 4 where it reads back as nil"))
        #expect(
            CoderMergeError.cannotCheckRenamedKeys(coder: "XMLEncoder").description.contains("renames keys")
        )
    }
}
