import Foundation
import NotesStore

/// The command and its `--name value` options, read once; a value that does not parse is an
/// `ArgumentError` that names the option.
struct Arguments: Sendable {
    let command: String?
    private var options: [String: String] = [:]
    private var flags: Set<String> = []

    init(_ arguments: ArraySlice<String>) {
        var rest = arguments
        command = rest.popFirst()
        while let argument = rest.popFirst() {
            if let next = rest.first, !next.hasPrefix("--") {
                options[argument] = next
                rest.removeFirst()
            } else {
                flags.insert(argument)
            }
        }
    }

    func has(_ flag: String) -> Bool {
        flags.contains(flag)
    }

    func string(_ name: String) -> String? {
        options[name]
    }

    func int(_ name: String, default value: Int? = nil) throws -> Int? {
        guard let text = options[name] else { return value }
        guard let number = Int(text) else {
            throw ArgumentError("\(name) needs a whole number, not \(text)")
        }
        return number
    }

    /// `--batch-size N`, at least 1; 500 when not given.
    func batchSize() throws -> Int {
        let size = try int("--batch-size", default: 500)!
        guard size > 0 else {
            throw ArgumentError("--batch-size needs at least 1, not \(size)")
        }
        return size
    }

    func double(_ name: String, default value: Double) throws -> Double {
        guard let text = options[name] else { return value }
        guard let number = Double(text), number >= 0 else {
            throw ArgumentError("\(name) needs a number of seconds, not \(text)")
        }
        return number
    }

    /// `--worker I/N`, counted from 1: the I-th of N shares of the table.
    func share() throws -> PostgresNoteStore.Share {
        guard let text = options["--worker"] else { return .all }
        let parts = text.split(separator: "/").compactMap { Int($0) }
        guard parts.count == 2, parts[1] > 0, (1...parts[1]).contains(parts[0]) else {
            throw ArgumentError("--worker needs I/N with 1 ≤ I ≤ N, not \(text)")
        }
        return PostgresNoteStore.Share(index: parts[0] - 1, count: parts[1])
    }
}

struct ArgumentError: Error {
    let message: String

    init(_ message: String) {
        self.message = message
    }
}

/// The connection settings from the service's environment variables.
enum PostgresConnectionSettingsFromEnvironment {
    static var settings: PostgresConnectionSettings {
        PostgresConnectionSettings(environment: ProcessInfo.processInfo.environment)
    }
}
