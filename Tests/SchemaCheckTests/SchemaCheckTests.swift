import Foundation
import Testing

@testable import schema_check

/// A git repository in a temporary folder, with schema files committed and then edited.
private struct Repository {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("schema-check-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try git("init", "--quiet")
        try git("config", "user.email", "tests@example.com")
        try git("config", "user.name", "Tests")
        try git("config", "commit.gpgsign", "false")
    }

    func git(_ arguments: String...) throws {
        try Git(directory: folder).run(arguments)
    }

    func write(_ path: String, _ text: String) throws {
        let file = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        try Data(text.utf8).write(to: file)
    }

    func remove(_ path: String) throws {
        try FileManager.default.removeItem(at: folder.appendingPathComponent(path))
    }

    func commit(_ message: String = "schemas") throws {
        try git("add", "-A")
        try git("commit", "--quiet", "-m", message)
    }

    func check(_ arguments: String...) -> (output: String, errors: String, status: SchemaCheckCommand.Status) {
        SchemaCheckCommand.run(arguments: ["--package-directory", folder.path] + arguments)
    }

    func delete() {
        try? FileManager.default.removeItem(at: folder)
    }
}

/// The version's constant and, where given, the declaration of the older builds that read and
/// write it back beside it, as a derived schema writes them: JSON properties, one each.
private func versionProperties(_ version: Int, readableFrom: Int?, writableFrom: Int?) -> [String] {
    var properties = [#""version": {"const": \#(version), "type": "integer"}"#]
    if let readableFrom {
        properties.append(
            #""versionReadableFrom": {"type": "integer", "minimum": \#(readableFrom), "maximum": \#(version)}"#
        )
    }
    if let writableFrom {
        properties.append(
            #""versionWritableFrom": {"type": "integer", "minimum": \#(writableFrom), "maximum": \#(version - 1)}"#
        )
    }
    return properties
}

/// A versioned object schema with these fields, each `name: type`, required unless its type
/// ends in `?`. With `readableFrom`, the version declares that builds of that version and later
/// read its documents with their own type, and with `writableFrom` that builds of that version
/// and later write them back, as a derived schema says it.
private func schema(
    version: Int,
    _ fields: [String: String],
    readableFrom: Int? = nil,
    writableFrom: Int? = nil
) -> String {
    var properties = versionProperties(version, readableFrom: readableFrom, writableFrom: writableFrom)
    var required = [#""version""#]
    for (name, type) in fields.sorted(by: { $0.key < $1.key }) {
        if type.hasSuffix("?") {
            properties.append(#""\#(name)": {"type": ["\#(type.dropLast())", "null"]}"#)
        } else {
            properties.append(#""\#(name)": {"type": "\#(type)"}"#)
            required.append(#""\#(name)""#)
        }
    }
    return
        #"{"type": "object", "properties": {\#(properties.joined(separator: ", "))}, "required": [\#(required.joined(separator: ", "))]}"#
}

/// A versioned object schema whose properties are given as JSON text, each required, with
/// `definitions` as the text of `$defs`' members, declaring that builds of the version before
/// read it and write it back.
private func declaringSchema(version: Int, _ properties: [String: String], definitions: String = "") -> String {
    let fields = properties.sorted(by: { $0.key < $1.key }).map { #""\#($0.key)": \#($0.value)"# }
    let all = versionProperties(version, readableFrom: version - 1, writableFrom: version - 1) + fields
    let required = (["version"] + properties.keys.sorted()).map { #""\#($0)""# }.joined(separator: ", ")
    return
        #"{"$defs": {\#(definitions)}, "type": "object", "properties": {\#(all.joined(separator: ", "))}, "required": [\#(required)]}"#
}

/// A reference to a definition in `$defs`.
private func ref(_ name: String) -> String {
    "{\"$ref\": \"#/$defs/\(name)\"}"
}

@Suite("The schema check against a git ref")
struct SchemaCheckTests {
    @Test("Unchanged files are clean, and the summary counts them")
    func clean() throws {
        let repository = try Repository()
        defer { repository.delete() }
        try repository.write("Schemas/Poem/v1.schema.json", schema(version: 1, ["author": "string"]))
        try repository.write(
            "Schemas/Poem/v2.schema.json",
            schema(version: 2, ["author": "string", "title": "string?"])
        )
        try repository.commit()
        let result = repository.check("--against", "HEAD")
        #expect(result.status == .clean)
        #expect(
            result.output.contains("No breaking changes against HEAD (backward): 4 schema files of 1 type compared.")
        )
    }

    @Test("A shipped version whose file changed is a break that names each field")
    func shippedVersionChanged() throws {
        let repository = try Repository()
        defer { repository.delete() }
        try repository.write(
            "Schemas/Poem/v1.schema.json",
            schema(version: 1, ["author": "string", "year": "integer"])
        )
        try repository.commit()
        try repository.write(
            "Schemas/Poem/v1.schema.json",
            schema(version: 1, ["author": "integer", "title": "string"])
        )
        let result = repository.check("--against", "HEAD")
        #expect(result.status == .breaking)
        #expect(result.output.contains("error: v1 is shipped and its schema changed: Schemas/Poem/v1.schema.json"))
        #expect(result.output.contains("- author: type changed from string to integer"))
        #expect(result.output.contains("- title: added"))
        #expect(result.output.contains("- year: removed"))
    }

    @Test("A version removed from a chain is a break")
    func versionRemoved() throws {
        let repository = try Repository()
        defer { repository.delete() }
        try repository.write("Schemas/Poem/v1.schema.json", schema(version: 1, ["author": "string"]))
        try repository.write("Schemas/Poem/v2.schema.json", schema(version: 2, ["author": "string"]))
        try repository.commit()
        try repository.remove("Schemas/Poem/v1.schema.json")
        let result = repository.check("--against", "HEAD")
        #expect(result.status == .breaking)
        #expect(
            result.output.contains("error: v1 is shipped and its schema file was removed: Schemas/Poem/v1.schema.json")
        )
    }

    @Test(
        "A field renamed by a new version that older builds do not read is carried by the chain's steps, in every mode"
    )
    func renameCarriedBySteps() throws {
        let repository = try Repository()
        defer { repository.delete() }
        try repository.write("Schemas/Poem/v1.schema.json", schema(version: 1, ["author": "string", "poem": "string"]))
        try repository.commit()
        // v2 renames both fields and requires them: a build reads a v1 document as v1 and
        // migrates it, and writes v1 for an older build through its downgrade step.
        try repository.write("Schemas/Poem/v2.schema.json", schema(version: 2, ["poet": "string", "text": "string"]))
        for mode in ["backward", "forward", "full-transitive"] {
            let result = repository.check("--against", "HEAD", "--mode", mode)
            #expect(result.status == .clean, "\(mode)")
            #expect(result.output.contains("note: v2 is new: Schemas/Poem/v2.schema.json"), "\(mode)")
            #expect(result.output.contains("the chain's steps carry every change, so its fields are not compared"))
        }
    }

    @Test("A field renamed by a new version that older builds read with their own type breaks both ways")
    func renameReadByOlderBuilds() throws {
        let repository = try Repository()
        defer { repository.delete() }
        try repository.write("Schemas/Poem/v1.schema.json", schema(version: 1, ["author": "string"]))
        try repository.commit()
        try repository.write(
            "Schemas/Poem/v2.schema.json",
            schema(version: 2, ["poet": "string"], readableFrom: 1, writableFrom: 1)
        )
        let full = repository.check("--against", "HEAD", "--mode", "full")
        #expect(full.status == .breaking)
        #expect(
            full.output.contains(
                "builds of v1 and later read it with their own type, and builds of v1 and later write it back: "
                    + "compared with v1"
            )
        )
        #expect(full.output.contains("- author: required by v1, which v2 does not always write"))
        // A build of v1 keeps `poet` at the root as it came: writing back drops nothing.
        #expect(!full.output.contains("- poet:"))
    }

    @Test("A field older builds write back that the new version requires or reads differently breaks backward")
    func backwardBreak() throws {
        let repository = try Repository()
        defer { repository.delete() }
        try repository.write(
            "Schemas/Poem/v1.schema.json",
            schema(version: 1, ["author": "string", "year": "integer", "title": "string?"])
        )
        try repository.commit()
        // `stars` is new and kept by older builds; `title` they may leave out, `year` they write
        // as an integer, which v2 reads as a string.
        try repository.write(
            "Schemas/Poem/v2.schema.json",
            schema(
                version: 2,
                ["author": "string", "stars": "integer", "title": "string", "year": "string"],
                readableFrom: 1,
                writableFrom: 1
            )
        )
        let backward = repository.check("--against", "HEAD")
        #expect(backward.status == .breaking)
        #expect(backward.output.contains("error: v2 is not backward compatible with v1"))
        #expect(backward.output.contains("- title: required by v2, which v1 does not always write"))
        #expect(backward.output.contains("- year: v1 writes integer, which v2 does not read"))
        #expect(!backward.output.contains("- stars:"))
        #expect(repository.check("--against", "HEAD", "--mode", "full").status == .breaking)
        // Read only by older builds, never written back by them: nothing to compare backward.
        try repository.write(
            "Schemas/Poem/v2.schema.json",
            schema(
                version: 2,
                ["author": "string", "stars": "integer", "title": "string", "year": "string"],
                readableFrom: 1
            )
        )
        let readOnly = repository.check("--against", "HEAD")
        #expect(readOnly.status == .clean)
        #expect(readOnly.output.contains("builds of v1 and later read it with their own type: compared with none"))
    }

    @Test(
        "Fields are compared through references, optionals, array elements, dictionary values, enumerations and versioned parts"
    )
    func compatibilityBelowTheFields() throws {
        let person = #""type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]"#
        let personWithEmail =
            #""type": "object", "properties": {"name": {"type": "string"}, "email": {"type": "string"}}, "required": ["name", "email"]"#
        let part = { (version: Int, extra: String) in
            #""PartV\#(version)": {"type": "object", "properties": {"version": {"const": \#(version), "type": "integer"}\#(extra)}, "required": ["version"]}"#
        }
        let cases:
            [(old: [String: String], new: [String: String], definitions: (String, String), mode: String, line: String)] =
                [
                    (
                        ["author": ref("Person"), "editor": ref("Person")],
                        ["author": ref("Person"), "editor": ref("Person")],
                        (#""Person": {\#(person)}"#, #""Person": {\#(personWithEmail)}"#), "backward",
                        "- author.email: v1 does not know it, and drops it when it writes the document back"
                    ),
                    (
                        ["people": #"{"type": "array", "items": {\#(person)}}"#],
                        ["people": #"{"type": "array", "items": {\#(personWithEmail)}}"#],
                        ("", ""), "backward",
                        "- people[].email: v1 does not know it, and drops it when it writes the document back"
                    ),
                    (
                        ["author": #"{"anyOf": [{\#(person)}, {"type": "null"}]}"#],
                        [
                            "author":
                                #"{"anyOf": [{\#(person.replacingOccurrences(of: "string", with: "integer"))}, {"type": "null"}]}"#
                        ],
                        ("", ""), "forward", "- author.name: v2 writes integer, which v1 does not read"
                    ),
                    (
                        ["scores": #"{"type": "object", "additionalProperties": {"type": "integer"}}"#],
                        ["scores": #"{"type": "object", "additionalProperties": {"type": "string"}}"#],
                        ("", ""), "backward", "- scores{}: v1 writes integer, which v2 does not read"
                    ),
                    (
                        ["color": #"{"type": "string", "enum": ["red", "green"]}"#],
                        ["color": #"{"type": "string", "enum": ["red", "green", "blue"]}"#],
                        ("", ""), "forward", #"- color: v2 writes "blue", which v1 does not read"#
                    ),
                    (
                        ["color": #"{"type": "string", "enum": ["red", "blue"]}"#],
                        ["color": #"{"type": "string", "enum": ["red"]}"#],
                        ("", ""), "backward", #"- color: v1 writes "blue", which v2 does not read"#
                    ),
                    (
                        ["part": "{\"anyOf\": [\(ref("PartV1"))]}"],
                        ["part": "{\"anyOf\": [\(ref("PartV2")), \(ref("PartV1"))]}"],
                        (part(1, ""), part(2, "") + ", " + part(1, "")), "forward",
                        "- part.version: v2 writes version 2 of this part, which v1 reads only up to version 1"
                    ),
                ]
        for (old, new, definitions, mode, line) in cases {
            let repository = try Repository()
            defer { repository.delete() }
            try repository.write(
                "Schemas/Poem/v1.schema.json",
                declaringSchema(version: 1, old, definitions: definitions.0)
            )
            try repository.commit()
            try repository.write(
                "Schemas/Poem/v2.schema.json",
                declaringSchema(version: 2, new, definitions: definitions.1)
            )
            let result = repository.check("--against", "HEAD", "--mode", mode)
            #expect(result.status == .breaking, "\(line)")
            #expect(result.output.contains(line), "\(result.output)")
            // The other way, each of these changes is none of the other mode's business.
            let other = repository.check("--against", "HEAD", "--mode", mode == "forward" ? "backward" : "forward")
            #expect(!other.output.contains(line))
        }
    }

    @Test(
        "A versioned part that older builds may read, and a type that holds itself, are compared without a false break"
    )
    func compatibilityThroughPartsAndLoops() throws {
        let repository = try Repository()
        defer { repository.delete() }
        let node =
            #""Node": {"type": "object", "properties": {"value": {"type": "integer"}, "next": {"anyOf": [\#(ref("Node")), {"type": "null"}]}}, "required": ["value"]}"#
        let partV1 =
            #""PartV1": {"type": "object", "properties": {"version": {"const": 1, "type": "integer"}, "label": {"type": "string"}}, "required": ["version", "label"]}"#
        let partV2 =
            #""PartV2": {"type": "object", "properties": {"version": {"const": 2, "type": "integer"}, "versionReadableFrom": {"type": "integer", "minimum": 1, "maximum": 2}, "label": {"type": "string"}, "note": {"type": "string"}}, "required": ["version", "label"]}"#
        try repository.write(
            "Schemas/Poem/v1.schema.json",
            declaringSchema(
                version: 1,
                ["list": ref("Node"), "part": "{\"anyOf\": [\(ref("PartV1"))]}"],
                definitions: node + ", " + partV1
            )
        )
        try repository.commit()
        try repository.write(
            "Schemas/Poem/v2.schema.json",
            declaringSchema(
                version: 2,
                ["list": ref("Node"), "part": "{\"anyOf\": [\(ref("PartV2")), \(ref("PartV1"))]}"],
                definitions: node + ", " + partV1 + ", " + partV2
            )
        )
        let result = repository.check("--against", "HEAD", "--mode", "full")
        #expect(result.status == .clean, "\(result.output)")
    }

    @Test(
        "A part is compared at the version each side writes, whatever the order of its options and the place of its version"
    )
    func partsByTheirNewestVersion() throws {
        func part(_ version: Int, _ fields: String, nested: Bool = false) -> String {
            let constant = #"{"const": \#(version), "type": "integer"}"#
            let versionMember =
                nested
                ? #""_metadata": {"type": "object", "properties": {"version": \#(constant)}, "required": ["version"]}"#
                : #""version": \#(constant)"#
            return
                #""PartV\#(version)": {"type": "object", "properties": {\#(versionMember)\#(fields)}, "required": ["label"]}"#
        }
        let label = #", "label": {"type": "string"}"#
        let cases: [(old: (String, String), new: (String, String), mode: String, line: String)] = [
            // Listed oldest first: the part is still written at version 2.
            (
                ("[\(ref("PartV1"))]", part(1, label)),
                ("[\(ref("PartV1")), \(ref("PartV2"))]", part(1, label) + ", " + part(2, label)),
                "forward", "- part.version: v2 writes version 2 of this part, which v1 reads only up to version 1"
            ),
            // The version in the part's `_metadata`.
            (
                ("[\(ref("PartV1"))]", part(1, label, nested: true)),
                (
                    "[\(ref("PartV2")), \(ref("PartV1"))]",
                    part(2, label, nested: true) + ", " + part(1, label, nested: true)
                ),
                "forward",
                "- part._metadata.version: v2 writes version 2 of this part, which v1 reads only up to version 1"
            ),
            // The same version, with a field its older builds drop when they write it back.
            (
                ("[\(ref("PartV1"))]", part(1, label)),
                ("[\(ref("PartV1"))]", part(1, label + #", "color": {"type": "string"}"#)),
                "backward", "- part.color: v1 does not know it, and drops it when it writes the document back"
            ),
        ]
        for (old, new, mode, line) in cases {
            let repository = try Repository()
            defer { repository.delete() }
            try repository.write(
                "Schemas/Poem/v1.schema.json",
                declaringSchema(version: 1, ["part": #"{"anyOf": \#(old.0)}"#], definitions: old.1)
            )
            try repository.commit()
            try repository.write(
                "Schemas/Poem/v2.schema.json",
                declaringSchema(version: 2, ["part": #"{"anyOf": \#(new.0)}"#], definitions: new.1)
            )
            let result = repository.check("--against", "HEAD", "--mode", mode)
            #expect(result.status == .breaking, "\(line)")
            #expect(result.output.contains(line), "\(result.output)")
        }
    }

    @Test("A type used as a part and as a plain field is compared once, named at its first place")
    func typeUsedTwice() throws {
        let repository = try Repository()
        defer { repository.delete() }
        let part = { (fields: String) in
            #""PartV1": {"type": "object", "properties": {"version": {"const": 1, "type": "integer"}, "label": {"type": "string"}\#(fields)}, "required": ["version", "label"]}"#
        }
        let fields = ["stamp": #"{"anyOf": [\#(ref("PartV1"))]}"#, "plain": ref("PartV1")]
        try repository.write("Schemas/Poem/v1.schema.json", declaringSchema(version: 1, fields, definitions: part("")))
        try repository.commit()
        try repository.write(
            "Schemas/Poem/v2.schema.json",
            declaringSchema(version: 2, fields, definitions: part(#", "note": {"type": "string"}"#))
        )
        let result = repository.check("--against", "HEAD")
        #expect(result.status == .breaking)
        #expect(result.output.contains("- plain.note: v1 does not know it"), "\(result.output)")
    }

    @Test("A new version that stops writing a field the one before required breaks forward compatibility")
    func forwardBreak() throws {
        let repository = try Repository()
        defer { repository.delete() }
        try repository.write("Schemas/Poem/v1.schema.json", schema(version: 1, ["author": "string", "poem": "string"]))
        try repository.commit()
        try repository.write(
            "Schemas/Poem/v2.schema.json",
            schema(version: 2, ["author": "integer"], readableFrom: 1, writableFrom: 1)
        )
        #expect(repository.check("--against", "HEAD").status == .breaking)  // author's type changed
        let forward = repository.check("--against", "HEAD", "--mode", "forward")
        #expect(forward.status == .breaking)
        #expect(forward.output.contains("- poem: required by v1, which v2 does not always write"))
        #expect(forward.output.contains("- author: v2 writes integer, which v1 does not read"))
    }

    @Test("A field added below the root of a version older builds write back is a backward break, optional or not")
    func nestedFieldDroppedOnWriteBack() throws {
        let repository = try Repository()
        defer { repository.delete() }
        func memo(_ version: Int, inner: String, readableFrom: Int? = nil, writableFrom: Int? = nil) -> String {
            let properties = versionProperties(version, readableFrom: readableFrom, writableFrom: writableFrom)
            return #"""
                {"type": "object", "required": ["version", "meta"], "properties": {
                  \#(properties.joined(separator: ", ")),
                  "meta": {"type": "object", "required": ["a"], "properties": {\#(inner)}}}}
                """#
        }
        try repository.write("Schemas/Memo/v1.schema.json", memo(1, inner: #""a": {"type": "string"}"#))
        try repository.commit()
        let added = #""a": {"type": "string"}, "b": {"type": ["string", "null"]}"#
        try repository.write("Schemas/Memo/v2.schema.json", memo(2, inner: added, readableFrom: 1, writableFrom: 1))
        let backward = repository.check("--against", "HEAD")
        #expect(backward.status == .breaking)
        #expect(
            backward.output.contains("- meta.b: v1 does not know it, and drops it when it writes the document back")
        )
        // Builds of v1 that only read v2 drop nothing.
        try repository.write("Schemas/Memo/v2.schema.json", memo(2, inner: added, readableFrom: 1))
        #expect(repository.check("--against", "HEAD", "--mode", "full").status == .clean)
    }

    @Test("A field added beside a version below the root is kept by older builds, as at the root; deeper, it is not")
    func fieldBesideVersionBelowTheRoot() throws {
        let repository = try Repository()
        defer { repository.delete() }
        func memo(_ version: Int, metadata: String, readableFrom: Int? = nil, writableFrom: Int? = nil) -> String {
            let properties = versionProperties(version, readableFrom: readableFrom, writableFrom: writableFrom)
            return #"""
                {"type": "object", "required": ["_metadata"], "properties": {"_metadata": {"type": "object",
                  "required": ["version"], "properties": {\#((properties + [metadata]).filter { !$0.isEmpty }.joined(separator: ", "))}}}}
                """#
        }
        try repository.write("Schemas/Memo/v1.schema.json", memo(1, metadata: ""))
        try repository.commit()
        // An older build keeps `_metadata.createdBy` and writes it back where it was.
        try repository.write(
            "Schemas/Memo/v2.schema.json",
            memo(2, metadata: #""createdBy": {"type": "string"}"#, readableFrom: 1, writableFrom: 1)
        )
        #expect(repository.check("--against", "HEAD", "--mode", "full").status == .clean)
        // An object inside `_metadata` that v1 does not know is kept whole too; a field inside an
        // object v1 knows there is not.
        let origin = #""origin": {"type": "object", "required": ["app"], "properties": {"app": {"type": "string"}}}"#
        try repository.write("Schemas/Memo/v2.schema.json", memo(2, metadata: origin, readableFrom: 1, writableFrom: 1))
        #expect(repository.check("--against", "HEAD").status == .clean)
        let deeperRepository = try Repository()
        defer { deeperRepository.delete() }
        try deeperRepository.write("Schemas/Memo/v1.schema.json", memo(1, metadata: origin))
        try deeperRepository.commit()
        let deeper =
            #""origin": {"type": "object", "required": ["app"], "properties": {"app": {"type": "string"}, "#
            + #""build": {"type": "integer"}}}"#
        try deeperRepository.write(
            "Schemas/Memo/v2.schema.json",
            memo(2, metadata: deeper, readableFrom: 1, writableFrom: 1)
        )
        let backward = deeperRepository.check("--against", "HEAD")
        #expect(backward.status == .breaking)
        #expect(
            backward.output.contains(
                "- _metadata.origin.build: v1 does not know it, and drops it when it writes the document back"
            )
        )
    }

    @Test("A declaration beside a version below the root, as at _metadata.version, is found there")
    func declarationBelowTheRoot() throws {
        let repository = try Repository()
        defer { repository.delete() }
        func metadata(_ version: Int, readableFrom: Int?, fields: String) -> String {
            let properties = versionProperties(version, readableFrom: readableFrom, writableFrom: nil)
            return #"""
                {"type": "object", "required": ["_metadata"\#(fields.isEmpty ? "" : ", \"title\"")],
                 "properties": {"_metadata": {"type": "object", "required": ["version"], "properties":
                   {\#(properties.joined(separator: ", "))}}\#(fields)}}
                """#
        }
        try repository.write(
            "Schemas/Memo/v1.schema.json",
            metadata(1, readableFrom: nil, fields: #", "title": {"type": "string"}"#)
        )
        try repository.commit()
        // v2 no longer writes the title v1 requires, and builds of v1 read v2.
        try repository.write("Schemas/Memo/v2.schema.json", metadata(2, readableFrom: 1, fields: ""))
        let forward = repository.check("--against", "HEAD", "--mode", "forward")
        #expect(forward.status == .breaking)
        #expect(forward.output.contains("builds of v1 and later read it with their own type: compared with v1"))
        #expect(forward.output.contains("- title: required by v1, which v2 does not always write"))
        // Without the declaration, the same schema is not compared at all.
        try repository.write("Schemas/Memo/v2.schema.json", metadata(2, readableFrom: nil, fields: ""))
        let undeclared = repository.check("--against", "HEAD", "--mode", "forward")
        #expect(undeclared.status == .clean)
        #expect(undeclared.output.contains("so its fields are not compared"))
    }

    @Test("A transitive mode compares a new version with every older one, not only the one before")
    func transitiveModes() throws {
        let repository = try Repository()
        defer { repository.delete() }
        // v1 always wrote `stars`; v2 dropped it; v3 requires it again, which v2 did not write.
        try repository.write(
            "Schemas/Poem/v1.schema.json",
            schema(version: 1, ["author": "string", "stars": "integer"])
        )
        try repository.write("Schemas/Poem/v2.schema.json", schema(version: 2, ["author": "string"]))
        try repository.commit()
        try repository.write(
            "Schemas/Poem/v3.schema.json",
            schema(version: 3, ["author": "string", "stars": "integer?"], readableFrom: 1)
        )
        // Against v2 alone, v3 only adds an optional field: forward and backward both hold.
        #expect(repository.check("--against", "HEAD", "--mode", "full").status == .clean)
        // v1 requires `stars`, which v3 does not always write: v1 cannot read every v3 document.
        let transitive = repository.check("--against", "HEAD", "--mode", "forward-transitive")
        #expect(transitive.status == .breaking)
        #expect(transitive.output.contains("error: v3 is not forward-transitive compatible with v1"))
        #expect(transitive.output.contains("- stars: required by v1, which v3 does not always write"))
        #expect(!transitive.output.contains("compatible with v2"))
        #expect(repository.check("--against", "HEAD", "--mode", "backward-transitive").status == .clean)
        #expect(repository.check("--against", "HEAD", "--mode", "FULL_TRANSITIVE").status == .breaking)
        // Declared readable from v2 only, v3 is not compared with v1, whose builds refuse it.
        try repository.write(
            "Schemas/Poem/v3.schema.json",
            schema(version: 3, ["author": "string", "stars": "integer?"], readableFrom: 2)
        )
        let declared = repository.check("--against", "HEAD", "--mode", "full-transitive")
        #expect(declared.status == .clean)
        #expect(declared.output.contains("builds of v2 and later read it with their own type: compared with v2"))
        let unknown = repository.check("--against", "HEAD", "--mode", "transitive")
        #expect(unknown.status == .usage)
        #expect(unknown.errors.contains("full-transitive"))
    }

    @Test("A commit since the ref that names a changed shipped file on a Schema-Change-Accepted line accepts it")
    func acceptedChange() throws {
        let repository = try Repository()
        defer { repository.delete() }
        try repository.write("Schemas/Poem/v1.schema.json", schema(version: 1, ["author": "string"]))
        try repository.write("Schemas/Poem/v2.schema.json", schema(version: 2, ["author": "string"]))
        try repository.commit()
        try repository.write("Schemas/Poem/v1.schema.json", schema(version: 1, ["author": "string?"]))
        try repository.remove("Schemas/Poem/v2.schema.json")
        try repository.commit(
            "Poem v1: the author may be missing\n\nSchema-Change-Accepted: Schemas/Poem/v1.schema.json"
        )
        let accepted = repository.check("--against", "HEAD~1")
        #expect(accepted.status == .breaking)
        #expect(accepted.output.contains("note: v1 is shipped and its schema changed, accepted in commit "))
        // The removal was not named: still a break.
        #expect(accepted.output.contains("error: v2 is shipped and its schema file was removed"))
        #expect(accepted.output.contains("1 breaking change against HEAD~1"))

        try repository.git(
            "commit",
            "--quiet",
            "--allow-empty",
            "-m",
            "Poem v2 was never shipped\n\nSchema-Change-Accepted: Schemas/Poem/v2.schema.json"
        )
        // Both commits are since HEAD~2: each accepts its file.
        let both = repository.check("--against", "HEAD~2", "--format", "json")
        #expect(both.status == .clean)
        #expect(both.output.contains(#""acceptedIn" : "#))

        // A file changed again after the commit that accepted it is not accepted.
        try repository.write("Schemas/Poem/v1.schema.json", schema(version: 1, ["author": "integer"]))
        let changedAgain = repository.check("--against", "HEAD~2")
        #expect(changedAgain.status == .breaking)
        #expect(
            changedAgain.output.contains("error: v1 is shipped and its schema changed: Schemas/Poem/v1.schema.json")
        )
    }

    @Test("A type's folder declares its own mode in compatibility.txt, which wins over --mode")
    func declaredMode() throws {
        let repository = try Repository()
        defer { repository.delete() }
        for type in ["Poem", "Song"] {
            try repository.write(
                "Schemas/\(type)/v1.schema.json",
                schema(version: 1, ["author": "string", "poem": "string"])
            )
        }
        try repository.write("Schemas/Poem/compatibility.txt", "FORWARD\n")
        try repository.commit()
        // Both drop a field version 1 required: a forward break, backward compatible.
        for type in ["Poem", "Song"] {
            try repository.write(
                "Schemas/\(type)/v2.schema.json",
                schema(version: 2, ["author": "string"], readableFrom: 1)
            )
        }
        let result = repository.check("--against", "HEAD")
        #expect(result.status == .breaking)
        #expect(result.output.contains("Poem (Schemas/Poem, forward as its compatibility.txt declares)"))
        #expect(result.output.contains("error: v2 is not forward compatible with v1: Schemas/Poem/v2.schema.json"))
        #expect(result.output.contains("Song (Schemas/Song)\n  note: v2 is new: Schemas/Song/v2.schema.json"))
        #expect(!result.output.contains("not backward compatible"))
        #expect(result.output.contains("1 breaking change"))
        let json = repository.check("--against", "HEAD", "--format", "json")
        #expect(json.output.contains(#""mode" : "forward""#))

        try repository.write("Schemas/Poem/compatibility.txt", "sideways")
        let bad = repository.check("--against", "HEAD")
        #expect(bad.status == .usage)
        #expect(bad.errors.contains("Schemas/Poem/compatibility.txt names the mode 'sideways'"))
    }

    @Test("Versions order as a chain: the unversioned documents first, then by number")
    func chainOrder() throws {
        let files = ["T/v10.schema.json", "T/v2.schema.json", "T/unversioned.schema.json"].compactMap {
            SchemaFile(path: $0)
        }
        #expect(files.sorted().map(\.versionName) == ["unversioned", "v2", "v10"])
        #expect(SchemaFile(path: "T/v2b.schema.json") == nil)
        #expect(SchemaFile(path: "v2.schema.json") == nil)
        #expect(SchemaFile(path: ".build/T/v2.schema.json") == nil)
    }

    @Test("A ref that does not exist is a usage error that says to fetch it")
    func badRef() throws {
        let repository = try Repository()
        defer { repository.delete() }
        try repository.write("Schemas/Poem/v1.schema.json", schema(version: 1, ["author": "string"]))
        try repository.commit()
        let result = repository.check("--against", "nonexistent")
        #expect(result.status == .usage)
        #expect(result.errors.contains("the ref 'nonexistent' is not in this repository"))
        #expect(result.errors.contains("git fetch --depth=1 origin nonexistent"))
    }

    @Test("No schema files in either place is a usage error, never a pass")
    func noFiles() throws {
        let repository = try Repository()
        defer { repository.delete() }
        try repository.write("README.md", "nothing here")
        try repository.commit()
        let result = repository.check("--against", "HEAD")
        #expect(result.status == .usage)
        #expect(result.errors.contains("no schema files"))
        #expect(result.errors.contains("nothing was checked"))
    }

    @Test("A schema file that is not JSON is a usage error that names the file")
    func notJSON() throws {
        let repository = try Repository()
        defer { repository.delete() }
        try repository.write("Schemas/Poem/v1.schema.json", schema(version: 1, ["author": "string"]))
        try repository.commit()
        try repository.write("Schemas/Poem/v1.schema.json", "{ not json")
        let result = repository.check("--against", "HEAD")
        #expect(result.status == .usage)
        #expect(result.errors.contains("Schemas/Poem/v1.schema.json at the working tree is not a JSON schema"))
    }

    @Test("Bad arguments are usage errors, and help exits cleanly")
    func arguments() throws {
        let repository = try Repository()
        defer { repository.delete() }
        #expect(repository.check().status == .usage)
        #expect(repository.check().errors.contains("--against <ref> is required"))
        #expect(repository.check("--against", "HEAD", "--format", "xml").status == .usage)
        #expect(repository.check("--against", "HEAD", "--mode", "sideways").status == .usage)
        #expect(repository.check("--against").status == .usage)
        #expect(repository.check("--frobnicate").status == .usage)
        let help = repository.check("--help")
        #expect(help.status == .clean)
        #expect(help.output.contains("EXIT STATUS: 0 no breaking change, 1 a breaking change, 64 a usage error."))
    }

    @Test("The folder option limits the search, and a folder without files is a usage error")
    func schemasFolder() throws {
        let repository = try Repository()
        defer { repository.delete() }
        try repository.write("Schemas/Poem/v1.schema.json", schema(version: 1, ["author": "string"]))
        try repository.write("Other/Note/v1.schema.json", schema(version: 1, ["text": "string"]))
        try repository.commit()
        try repository.write("Other/Note/v1.schema.json", schema(version: 1, ["text": "integer"]))
        #expect(repository.check("--against", "HEAD", "--schemas", "Schemas").status == .clean)
        #expect(repository.check("--against", "HEAD").status == .breaking)
        #expect(repository.check("--against", "HEAD", "--schemas", "Missing").status == .usage)
    }

    @Test("A folder given from the root of the file system, or a file, is the folder or a usage error, never a removal")
    func schemasFolderSpelledOtherwise() throws {
        let repository = try Repository()
        defer { repository.delete() }
        try repository.write("Schemas/Poem/v1.schema.json", schema(version: 1, ["author": "string"]))
        try repository.commit()
        let absolute = repository.check("--against", "HEAD", "--schemas", repository.folder.path + "/Schemas")
        #expect(absolute.status == .clean)
        #expect(absolute.output.contains("2 schema files of 1 type compared"))
        let file = repository.check("--against", "HEAD", "--schemas", "Schemas/Poem/v1.schema.json")
        #expect(file.status == .usage)
        #expect(file.errors.contains("which is a file"))
        let outside = repository.check("--against", "HEAD", "--schemas", "/")
        #expect(outside.status == .usage)
        #expect(outside.errors.contains("outside the package's folder"))
    }

    @Test("A shipped file in a folder whose name git would quote is compared, not taken for new")
    func folderNamesGitQuotes() throws {
        for type in ["Poème", #"Say"Hi"#, "Two words"] {
            let repository = try Repository()
            defer { repository.delete() }
            try repository.write("Schemas/\(type)/v1.schema.json", schema(version: 1, ["author": "string"]))
            try repository.write("Schemas/\(type)/v2.schema.json", schema(version: 2, ["author": "string"]))
            try repository.commit()
            try repository.write("Schemas/\(type)/v1.schema.json", schema(version: 1, ["author": "integer"]))
            try repository.remove("Schemas/\(type)/v2.schema.json")
            let result = repository.check("--against", "HEAD")
            #expect(result.status == .breaking, "\(type)")
            #expect(result.output.contains("v1 is shipped and its schema changed"), "\(type)")
            #expect(result.output.contains("v2 is shipped and its schema file was removed"), "\(type)")
        }
    }

    @Test("A new file that is not JSON is a usage error, whether or not anything is compared with it")
    func newFileNotJSON() throws {
        for path in ["Schemas/Other/v1.schema.json", "Schemas/Poem/unversioned.schema.json"] {
            let repository = try Repository()
            defer { repository.delete() }
            try repository.write("Schemas/Poem/v1.schema.json", schema(version: 1, ["author": "string"]))
            try repository.commit()
            try repository.write(path, "\u{1}\u{2} not a schema")
            let result = repository.check("--against", "HEAD")
            #expect(result.status == .usage, "\(path)")
            #expect(result.errors.contains("\(path) at the working tree is not a JSON schema"), "\(path)")
        }
    }

    @Test("A schema whose options refer to each other is compared in time")
    func optionsReferringToEachOther() throws {
        let repository = try Repository()
        defer { repository.delete() }
        // Sixteen options, each the whole schema again: summing them up level by level would
        // take sixteen to the power of the levels.
        let options = Array(repeating: ##"{"$ref": "#"}"##, count: 15) + [#"{"type": "null"}"#]
        let text = #"{"anyOf": [\#(options.joined(separator: ", "))]}"#
        try repository.write("Schemas/Loop/v1.schema.json", text)
        try repository.commit()
        try repository.write("Schemas/Loop/v1.schema.json", text.replacingOccurrences(of: "null", with: "string"))
        let started = Date()
        let result = repository.check("--against", "HEAD")
        #expect(result.status == .breaking)
        #expect(Date().timeIntervalSince(started) < 30)
    }

    @Test("JSON output lists each type's findings for programs")
    func jsonOutput() throws {
        let repository = try Repository()
        defer { repository.delete() }
        try repository.write("Schemas/Poem/v1.schema.json", schema(version: 1, ["author": "string"]))
        try repository.commit()
        try repository.write("Schemas/Poem/v1.schema.json", schema(version: 1, ["author": "integer"]))
        let result = repository.check("--against", "HEAD", "--format", "json")
        #expect(result.status == .breaking)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        )
        #expect(document["breaking"] as? Bool == true)
        #expect(document["ref"] as? String == "HEAD")
        #expect(result.output.contains(#""file" : "Schemas/Poem/v1.schema.json""#))
        let types = try #require(document["types"] as? [[String: Any]])
        #expect(types.first?["type"] as? String == "Poem")
        let findings = try #require(types.first?["findings"] as? [[String: Any]])
        #expect(findings.first?["kind"] as? String == "shipped-version-changed")
        #expect(findings.first?["details"] as? [String] == ["author: type changed from string to integer"])
    }

    @Test("GitHub output is one annotation per finding, on the file, with the lines escaped")
    func githubOutput() throws {
        let repository = try Repository()
        defer { repository.delete() }
        try repository.write("Package/Schemas/Poem/v1.schema.json", schema(version: 1, ["author": "string"]))
        try repository.commit()
        try repository.write("Package/Schemas/Poem/v1.schema.json", schema(version: 1, ["author": "integer"]))
        let result = SchemaCheckCommand.run(arguments: [
            "--package-directory", repository.folder.appendingPathComponent("Package").path,
            "--against", "HEAD", "--format", "github",
        ])
        #expect(result.status == .breaking)
        let lines = result.output.components(separatedBy: "\n")
        #expect(
            lines.first
                == "::error file=Package/Schemas/Poem/v1.schema.json,title=Schema check against HEAD::"
                + "Poem v1 is shipped and its schema changed%0Aauthor: type changed from string to integer"
        )
    }

    @Test("The check reads the ref in a shallow clone that fetched it")
    func shallowClone() throws {
        let origin = try Repository()
        defer { origin.delete() }
        try origin.write("Schemas/Poem/v1.schema.json", schema(version: 1, ["author": "string"]))
        try origin.commit()
        try origin.write("Schemas/Poem/v1.schema.json", schema(version: 1, ["author": "integer"]))
        try origin.commit()
        try origin.git("tag", "shipped", "HEAD~1")
        let clone = try Repository()
        defer { clone.delete() }
        try clone.git("remote", "add", "origin", "file://" + origin.folder.path)
        try clone.git("fetch", "--quiet", "--depth=1", "origin", "HEAD")
        try clone.git("checkout", "--quiet", "FETCH_HEAD")
        #expect(clone.check("--against", "shipped").status == .usage)
        try clone.git("fetch", "--quiet", "--depth=1", "origin", "tag", "shipped")
        let result = clone.check("--against", "shipped")
        #expect(result.status == .breaking)
        #expect(result.output.contains("- author: type changed from string to integer"))
    }

    #if os(Linux)
        @Test("Running git leaves no file open: a check run in a long-lived process does not use up descriptors")
        func gitClosesItsFiles() async {
            // In a child process, so that no other test opens or closes files meanwhile.
            await #expect(processExitsWith: .success) {
                func openFiles() -> Int {
                    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
                }
                guard let repository = try? Repository() else { exit(2) }
                defer { repository.delete() }
                let before = openFiles()
                for _ in 0..<40 {
                    _ = try? Git(directory: repository.folder).run(
                        ["rev-parse", "--show-prefix"],
                        input: Data("x".utf8)
                    )
                    _ = try? Git(directory: repository.folder).run(["cat-file", "-e", "missing^{commit}"])
                }
                let after = openFiles()
                if before < 0 || after - before > 4 {
                    Issue.record("open files: \(before) before 80 git runs, \(after) after")
                    exit(1)
                }
                exit(0)
            }
        }
    #endif
}
