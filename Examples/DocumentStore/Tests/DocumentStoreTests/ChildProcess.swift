import Foundation
import Testing

/// An executable built beside the tests, run as a person or a script runs it. The notes
/// service's tests compile this file through a link.
///
/// Its output goes to files rather than pipes, so a child that writes much to one stream never
/// waits for the test to read the other. Its exit is reported by its termination handler rather
/// than awaited with `waitUntilExit()`, which polls the calling thread's run loop and, on Linux,
/// can miss the exit of a child started from another thread under load. A child that has not
/// exited within its time limit is killed and the test fails, naming it, instead of hanging; so
/// is one whose test is cancelled, as a suite's time limit cancels it.
struct ChildProcess: Sendable {
    struct Run: Sendable {
        var status: Int32
        var output: String
        var errors: String
    }

    let process: Process
    let arguments: [String]
    private let folder: URL
    private let exited: DispatchSemaphore

    /// The folder that holds the running test bundle, where SwiftPM puts every product of the
    /// build that runs the tests, whatever its scratch path or configuration. On Linux the bundle
    /// is the program that runs (`Bundle.main`); on macOS a runner loads it, so it is the loaded
    /// `.xctest` bundle.
    static var productsDirectory: URL {
        #if os(macOS)
            for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                return bundle.bundleURL.deletingLastPathComponent()
            }
        #endif
        return Bundle.main.bundleURL
    }

    /// Starts `executable` with `arguments`; `environment` replaces the test's own when given.
    init(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("child-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let exited = DispatchSemaphore(value: 0)
        let process = Process()
        do {
            // The child has its own copies of the handles once it runs; these close either way.
            let output = try Self.file(folder.appendingPathComponent("output"))
            defer { try? output.close() }
            let errors = try Self.file(folder.appendingPathComponent("errors"))
            defer { try? errors.close() }
            process.executableURL = executable
            process.arguments = arguments
            if let environment { process.environment = environment }
            process.standardOutput = output
            process.standardError = errors
            process.terminationHandler = { _ in exited.signal() }
            try process.run()
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        self.folder = folder
        self.exited = exited
        self.process = process
        self.arguments = arguments
    }

    private static func file(_ url: URL) throws -> FileHandle {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        return try FileHandle(forWritingTo: url)
    }

    /// Waits, off the tasks' threads, until the child exits, and returns its status and output.
    /// A test that is cancelled meanwhile (its time limit passed) kills the child, so that it
    /// ends too.
    func finish(within seconds: Int = 120) async -> Run {
        let (run, killed) = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: wait(seconds)) }
            }
        } onCancel: { [process] in
            kill(process.processIdentifier, SIGKILL)
        }
        if killed {
            Issue.record("\(arguments.joined(separator: " ")) did not exit within \(seconds) s and was killed")
        }
        return run
    }

    private func wait(_ seconds: Int) -> (Run, killed: Bool) {
        var killed = false
        if exited.wait(timeout: .now() + .seconds(seconds)) == .timedOut {
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
            killed = true
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = Run(status: process.terminationStatus, output: read("output"), errors: read("errors"))
        return (run, killed)
    }

    private func read(_ name: String) -> String {
        String(decoding: (try? Data(contentsOf: folder.appendingPathComponent(name))) ?? Data(), as: UTF8.self)
    }
}
