import Foundation
import Testing

/// Keeps the code in the README, the guides, the documentation articles and the documentation
/// comments honest: every Swift sample must appear, line for line, in a Swift file that the
/// package or its CI builds.
@Suite("Documentation code samples")
struct ReadmeSnippetTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Lines without indentation, blank lines and comments, so that a sample may leave out
    /// comments and blank lines that the compiled file has, and the reverse.
    static func normalized(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("//") }
    }

    static func swiftBlocks(in markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if current != nil, trimmed == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    static func files(under folder: URL, withExtension ext: String) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return []
        }
        var found: [URL] = []
        for case let url as URL in enumerator {
            let name = url.lastPathComponent
            if name.hasPrefix(".build") || name == ".git" {
                enumerator.skipDescendants()
            } else if url.pathExtension == ext {
                found.append(url)
            }
        }
        return found
    }

    /// The README, the guides beside the examples and the benchmarks, and the DocC articles.
    static var documents: [String] {
        let articles = files(under: root.appendingPathComponent("Sources"), withExtension: "md")
            .filter { $0.path.contains(".docc/") }
        let exampleGuides = files(under: root.appendingPathComponent("Examples"), withExtension: "md")
            .filter { $0.lastPathComponent == "README.md" }
        let guides = ["README.md", "CONTRIBUTING.md", "Benchmarks/README.md"]
        return guides + (exampleGuides + articles).map { String($0.path.dropFirst(root.path.count + 1)) }.sorted()
    }

    static let compiledLines: [String] = {
        let folders = ["Sources", "Tests", "Examples", "IntegrationTests", "Benchmarks"]
        return folders.flatMap { files(under: root.appendingPathComponent($0), withExtension: "swift") }
            .compactMap { try? String(contentsOf: $0, encoding: .utf8) }
            .flatMap { normalized($0) + ["<end of file>"] }
    }()

    /// Files whose documentation samples are not compiled yet. Each one's owner marks its
    /// samples with `<!-- snippet: NAME -->` and compiles them, then takes it off this list.
    static let samplesNotYetCompiled: Set<String> = [
        "Sources/VersionedCodable/Chain/NothingEarlier.swift",
        "Sources/VersionedCodable/Chain/VersionedCodable.swift",
        "Sources/VersionedCodable/Errors/VersionedDecodingError.swift",
        "Sources/VersionedCodable/Reading/VersionedCodable+DecodeTransparently.swift",
        "Sources/VersionedCodable/Writing/VersionedCodable+EncodeTransparently.swift",
    ]

    /// The library sources whose documentation comments hold Swift samples.
    static var documentedSources: [String] {
        files(under: root.appendingPathComponent("Sources"), withExtension: "swift")
            .filter { (try? String(contentsOf: $0, encoding: .utf8))?.contains("/// ```swift") == true }
            .map { String($0.path.dropFirst(root.path.count + 1)) }
            .filter { !samplesNotYetCompiled.contains($0) }
            .sorted()
    }

    /// The Swift blocks of a source file's documentation comments, without the `///`.
    static func documentationBlocks(in source: String) -> [String] {
        let documentation = source.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("///") }
            .map { line in
                let text = line.dropFirst(3)
                return text.hasPrefix(" ") ? String(text.dropFirst()) : String(text)
            }
        return swiftBlocks(in: documentation.joined(separator: "\n"))
    }

    static func isCompiled(_ block: String) -> Bool {
        let lines = normalized(block)
        return compiledLines.indices.contains { start in
            compiledLines[start...].starts(with: lines)
        }
    }

    @Test("Every Swift sample in the README and the articles is compiled code", arguments: documents)
    func samplesAreCompiled(document: String) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
        let blocks = Self.swiftBlocks(in: text)
        if document == "README.md" {
            #expect(text.contains("<!-- snippet: quick-start -->"), "the README lost its quick start")
        }
        for block in blocks {
            // A user's manifest cannot be compiled inside this package.
            if block.contains("// In Package.swift") || block.contains(".testTarget(") {
                continue
            }
            #expect(Self.isCompiled(block), "\(document): this sample is not in any compiled file:\n\(block)")
        }
    }

    @Test("Every Swift sample in a documentation comment is compiled code", arguments: documentedSources)
    func documentationCommentSamplesAreCompiled(file: String) throws {
        let source = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
        let blocks = Self.documentationBlocks(in: source)
        #expect(!blocks.isEmpty)
        for block in blocks {
            #expect(Self.isCompiled(block), "\(file): this sample is not in any compiled file:\n\(block)")
        }
    }
}
