import Foundation
import PackagePlugin

/// `swift package check-schemas --against <ref>`: runs `schema-check` on the package's folder.
///
/// The plugin only resolves the package's folder and the tool; the tool reads the files and
/// runs git, so that its tests exercise all of the check. Nothing of the package is built but
/// the tool itself.
@main
struct CheckSchemas: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "schema-check")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = ["--package-directory", context.package.directoryURL.path] + arguments
        try process.run()
        process.waitUntilExit()
        // The tool's status is the command's: 1 for a breaking change, 64 for a usage error.
        if process.terminationStatus != 0 {
            exit(process.terminationStatus)
        }
    }
}
