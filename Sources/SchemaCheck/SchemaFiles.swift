import Foundation
import VersionedCodableSchema

/// One committed schema file: a type's version, found by its path.
///
/// A file is a schema file when its name is `v<N>.schema.json` or `unversioned.schema.json`, as
/// ``VersionedCodableSchema/VersionSchema/fileName`` names it; its folder is the type, so
/// `Schemas/Poem/v3.schema.json` is version 3 of `Poem`. Folders whose names start with a dot
/// (`.git`, `.build`) are never searched.
struct SchemaFile: Hashable, Comparable {
    /// The path from the package's folder, with `/` between components.
    let path: String

    /// The type's folder, from the package's folder: `Schemas/Poem`.
    var typeFolder: String {
        path.split(separator: "/").dropLast().joined(separator: "/")
    }

    /// The version, or `nil` for documents from before versioning.
    let version: Int?

    /// The path's last component: `v3.schema.json`.
    var fileName: String { String(path.split(separator: "/").last ?? "") }

    /// `v3`, or `unversioned`.
    var versionName: String { version.map { "v\($0)" } ?? "unversioned" }

    /// Recognizes a schema file by its path, or returns `nil`.
    init?(path: String) {
        let components = path.split(separator: "/")
        guard components.count >= 2, !components.contains(where: { $0.hasPrefix(".") && $0 != "." }) else {
            return nil
        }
        let name = components[components.count - 1]
        guard name.hasSuffix(Self.suffix) else { return nil }
        let stem = name.dropLast(Self.suffix.count)
        if stem == "unversioned" {
            version = nil
        } else if stem.first == "v", let number = Int(stem.dropFirst()), stem.dropFirst().allSatisfy(\.isNumber) {
            version = number
        } else {
            return nil
        }
        self.path = components.filter { $0 != "." }.joined(separator: "/")
    }

    static let suffix = ".schema.json"

    /// Versions in chain order: the unversioned documents first.
    static func < (lhs: SchemaFile, rhs: SchemaFile) -> Bool {
        (lhs.version ?? Int.min, lhs.path) < (rhs.version ?? Int.min, rhs.path)
    }
}

/// Where the schema files are read from: the working tree, or a git ref.
protocol SchemaSource {
    /// The schema files under a folder.
    func files(under folder: String) throws -> [SchemaFile]
    /// A file's bytes.
    func contents(of file: SchemaFile) throws -> Data
    /// Many files' bytes at once.
    func contents(of files: [SchemaFile]) throws -> [SchemaFile: Data]
    /// The bytes of a file beside the schema files, such as a type's `compatibility.txt`, or
    /// `nil` when there is none.
    func declaration(at path: String) throws -> Data?
}

extension SchemaSource {
    /// No declarations: only the working tree's count, since they say what a type requires now.
    func declaration(at path: String) throws -> Data? { nil }

    func contents(of files: [SchemaFile]) throws -> [SchemaFile: Data] {
        var contents: [SchemaFile: Data] = [:]
        for file in files {
            contents[file] = try self.contents(of: file)
        }
        return contents
    }
}

/// The schema files as they are now in the package's folder, committed or not.
struct WorkingTree: SchemaSource {
    let packageDirectory: URL

    func files(under folder: String) throws -> [SchemaFile] {
        let root = folder == "." ? packageDirectory : packageDirectory.appendingPathComponent(folder)
        let manager = FileManager.default
        guard
            let enumerator = manager.enumerator(
                at: root,
                includingPropertiesForKeys: [.isDirectoryKey],
                options: [.skipsHiddenFiles]
            )
        else { return [] }
        let base = packageDirectory.standardizedFileURL.path
        var found: [SchemaFile] = []
        for case let url as URL in enumerator where url.lastPathComponent.hasSuffix(SchemaFile.suffix) {
            let full = url.standardizedFileURL.path
            guard full.hasPrefix(base + "/") else { continue }
            if let file = SchemaFile(path: String(full.dropFirst(base.count + 1))) {
                found.append(file)
            }
        }
        return found.sorted()
    }

    func contents(of file: SchemaFile) throws -> Data {
        try Data(contentsOf: packageDirectory.appendingPathComponent(file.path))
    }

    func declaration(at path: String) throws -> Data? {
        let url = packageDirectory.appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try Data(contentsOf: url)
    }
}

/// The schema files as a git ref has them, read with `git ls-tree` and `git show`.
struct GitRef: SchemaSource {
    let git: Git
    let ref: String

    func files(under folder: String) throws -> [SchemaFile] {
        // Separated by NUL bytes: otherwise git quotes a path with a non-ASCII character or a
        // quote in it (`"Schemas/Po\303\250me/v1.schema.json"`), which names no file.
        let listing = try git.run(["ls-tree", "-r", "-z", "--name-only", ref, "--", folder])
        return listing.split(separator: 0).compactMap {
            SchemaFile(path: String(decoding: $0, as: UTF8.self))
        }.sorted()
    }

    func contents(of file: SchemaFile) throws -> Data {
        try git.run(["show", "\(ref):./\(file.path)"])
    }

    /// Every file from one `git cat-file --batch`, since a process for each file costs more
    /// than the comparison of a thousand of them.
    func contents(of files: [SchemaFile]) throws -> [SchemaFile: Data] {
        guard !files.isEmpty else { return [:] }
        let prefix = String(decoding: try git.run(["rev-parse", "--show-prefix"]), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let requests = files.map { "\(ref):\(prefix)\($0.path)\n" }.joined()
        let output = [UInt8](try git.run(["cat-file", "--batch"], input: Data(requests.utf8)))
        var contents: [SchemaFile: Data] = [:]
        var position = 0
        for file in files {
            guard let end = output[position...].firstIndex(of: UInt8(ascii: "\n")) else { break }
            let header = String(decoding: output[position..<end], as: UTF8.self).split(separator: " ")
            position = end + 1
            guard header.count == 3, header[1] == "blob", let size = Int(header[2]),
                position + size <= output.count
            else {
                throw Git.Failure(
                    arguments: ["cat-file", "--batch"],
                    status: 0,
                    message: "\(file.path) at \(ref): \(header.joined(separator: " "))"
                )
            }
            contents[file] = Data(output[position..<(position + size)])
            position += size + 1
        }
        return contents
    }
}

/// The `git` program, run in the package's folder.
struct Git {
    let directory: URL

    /// A git command that failed, with what it wrote to standard error.
    struct Failure: Error, CustomStringConvertible {
        let arguments: [String]
        let status: Int32
        let message: String
        var description: String {
            "git \(arguments.joined(separator: " ")) failed (\(status)): \(message)"
        }
    }

    /// Runs git and returns what it wrote; `input` is its standard input.
    @discardableResult
    func run(_ arguments: [String], input: Data = Data()) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = directory
        // Standard error goes to a file, so that a large `git show` on the pipe never waits for
        // a reader of the other stream. The file is removed as soon as it is open, so that
        // nothing is left behind when the check is interrupted: the open handles still reach it.
        let errorFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("schema-check-git-\(UUID().uuidString).txt")
        guard FileManager.default.createFile(atPath: errorFile.path, contents: nil) else {
            throw Failure(arguments: arguments, status: -1, message: "could not create \(errorFile.path)")
        }
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let errorWriter = try FileHandle(forWritingTo: errorFile)
        defer { try? errorWriter.close() }
        let errorReader = try FileHandle(forReadingFrom: errorFile)
        defer { try? errorReader.close() }
        try? FileManager.default.removeItem(at: errorFile)
        let output = Pipe()
        defer { try? output.fileHandleForReading.close() }
        process.standardOutput = output
        process.standardError = errorWriter
        // Standard input is a file too, written before git starts, for the same reason.
        let inputFile = errorFile.deletingPathExtension().appendingPathExtension("input")
        defer { try? FileManager.default.removeItem(at: inputFile) }
        try input.write(to: inputFile)
        let inputReader = try FileHandle(forReadingFrom: inputFile)
        defer { try? inputReader.close() }
        process.standardInput = inputReader
        try? FileManager.default.removeItem(at: inputFile)
        // The exit is reported by the termination handler: `waitUntilExit()` polls the calling
        // thread's run loop and, on Linux, can miss the exit when called off the main thread.
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        exited.wait()
        guard process.terminationStatus == 0 else {
            let message = String(decoding: (try? errorReader.readToEnd()) ?? Data(), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            throw Failure(arguments: arguments, status: process.terminationStatus, message: message)
        }
        return data
    }

    /// Whether the commit a ref names is in the repository.
    func hasCommit(_ ref: String) -> Bool {
        (try? run(["cat-file", "-e", "\(ref)^{commit}"])) != nil
    }
}
