import Foundation
import Testing

/// Keeps the code in the README and the documentation articles honest: every Swift sample must
/// appear, line for line, in a Swift file that the package or its CI builds.
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

    static var documents: [String] {
        let articles = files(under: root.appendingPathComponent("Sources"), withExtension: "md")
            .filter { $0.path.contains(".docc/") }
        return ["README.md"] + articles.map { String($0.path.dropFirst(root.path.count + 1)) }.sorted()
    }

    static let compiledLines: [String] = {
        let folders = ["Sources", "Tests", "Examples", "IntegrationTests", "Benchmarks"]
        return folders.flatMap { files(under: root.appendingPathComponent($0), withExtension: "swift") }
            .compactMap { try? String(contentsOf: $0, encoding: .utf8) }
            .flatMap { normalized($0) + ["<end of file>"] }
    }()

    @Test("Every Swift sample in the README and the articles is compiled code", arguments: documents)
    func samplesAreCompiled(document: String) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
        let blocks = Self.swiftBlocks(in: text)
        if document == "README.md" {
            #expect(blocks.count >= 8, "the README lost its samples")
        }
        for block in blocks {
            // A user's manifest cannot be compiled inside this package.
            if block.contains("// In Package.swift") || block.contains(".testTarget(") {
                continue
            }
            let lines = Self.normalized(block)
            let found = Self.compiledLines.indices.contains { start in
                Self.compiledLines[start...].starts(with: lines)
            }
            #expect(found, "\(document): this sample is not in any compiled file:\n\(block)")
        }
    }
}
