import Foundation

/// `schema-check`: compares committed schema files with a git ref's, as the `check-schemas`
/// command plugin runs it.
@main
enum SchemaCheckCommand {
    /// The exit statuses, as the documentation lists them.
    enum Status: Int32 {
        case clean = 0
        case breaking = 1
        case usage = 64
    }

    static let usage = """
        USAGE: swift package check-schemas --against <ref> [--schemas <folder>] [--format text|json|github]
                                           [--mode backward|forward|full[-transitive]]

        Compares the schema files of the working tree with those at a git ref, reading only files.

        A schema file is <folder>/.../<Type>/v<N>.schema.json or <Type>/unversioned.schema.json;
        folders whose names start with a dot are skipped.

        OPTIONS:
          --against <ref>     The branch, tag or commit to compare with (required). In a shallow
                              clone, fetch it first: git fetch --depth=1 origin <ref>
          --schemas <folder>  Where to look, from the package's folder or as an absolute path
                              inside it (default: the whole package).
          --format <format>   text (default), json, or github (workflow annotations).
          --mode <mode>       How each version the ref does not have must stay compatible with
                              the one before it: backward (default), forward or full; or with
                              every older version: backward-transitive, forward-transitive or
                              full-transitive (BACKWARD_TRANSITIVE and the like also work).
                              Only a version that declares older builds read it (a
                              versionReadableFrom beside its version) is compared field by
                              field: forward with the versions whose builds read it, backward
                              with those whose builds also write it back; the chain's steps
                              carry every other change. A type's folder may declare its own
                              mode in compatibility.txt.
          -h, --help          Show this help.

        A changed or removed shipped file is accepted, not a break, when a commit since the ref
        names it, from the repository's root, on a line "Schema-Change-Accepted: <path>".

        EXIT STATUS: 0 no breaking change, 1 a breaking change, 64 a usage error.
        """

    /// The parsed arguments.
    struct Options: Equatable {
        var packageDirectory = FileManager.default.currentDirectoryPath
        var ref: String?
        var folder = "."
        var format = OutputFormat.text
        var mode = CompatibilityMode.backward
        var wantsHelp = false

        init(arguments: [String]) throws {
            var remaining = arguments[...]
            func value(for name: String) throws -> String {
                guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                    throw UsageError(description: "\(name) needs a value")
                }
                return value
            }
            while let argument = remaining.popFirst() {
                switch argument {
                case "--package-directory": packageDirectory = try value(for: argument)
                case "--against": ref = try value(for: argument)
                case "--schemas": folder = try value(for: argument)
                case "--format":
                    let name = try value(for: argument)
                    guard let format = OutputFormat(rawValue: name) else {
                        throw UsageError(description: "unknown format '\(name)'; use text, json or github")
                    }
                    self.format = format
                case "--mode":
                    let name = try value(for: argument)
                    guard let mode = CompatibilityMode(name: name) else {
                        throw UsageError(
                            description: "unknown mode '\(name)'; use "
                                + CompatibilityMode.allCases.map(\.rawValue).joined(separator: ", ")
                        )
                    }
                    self.mode = mode
                case "-h", "--help": wantsHelp = true
                default: throw UsageError(description: "unknown argument '\(argument)'")
                }
            }
            if !wantsHelp && ref == nil {
                throw UsageError(description: "--against <ref> is required")
            }
        }
    }

    /// Runs the check and returns what to print and the exit status, so that tests call it as
    /// the program does.
    static func run(arguments: [String]) -> (output: String, errors: String, status: Status) {
        do {
            let options = try Options(arguments: arguments)
            if options.wantsHelp { return (usage, "", .clean) }
            let ref = options.ref ?? ""
            let directory = URL(fileURLWithPath: options.packageDirectory, isDirectory: true)
            let git = Git(directory: directory)
            let prefix: String
            do {
                prefix = String(decoding: try git.run(["rev-parse", "--show-prefix"]), as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            } catch {
                throw UsageError(description: "\(directory.path) is not in a git repository: \(error)")
            }
            guard git.hasCommit(ref) else {
                throw UsageError(
                    description: "the ref '\(ref)' is not in this repository; "
                        + "in a shallow clone, fetch it first: git fetch --depth=1 origin \(ref)"
                )
            }
            let check = SchemaCheck(
                now: WorkingTree(packageDirectory: directory),
                then: GitRef(git: git, ref: ref),
                ref: ref,
                folder: try schemasFolder(options.folder, in: directory),
                mode: options.mode
            )
            var report = try check.run()
            if !report.isClean {
                report = report.accepting(try acceptedChanges(git: git, since: ref), pathPrefix: prefix)
            }
            return (report.rendered(as: options.format, pathPrefix: prefix), "", report.isClean ? .clean : .breaking)
        } catch let error as UsageError {
            return ("", "error: \(error.description)", .usage)
        } catch {
            return ("", "error: \(error)", .usage)
        }
    }

    /// The folder `--schemas` names, from the package's folder, as the working tree and git both
    /// take it: an absolute path is made relative to the package's folder.
    ///
    /// - Throws: ``UsageError`` for a folder outside the package's folder, or a path that is a
    ///   file: no schema files would be found there, and every shipped one would read as removed.
    static func schemasFolder(_ given: String, in package: URL) throws -> String {
        let base = package.resolvingSymlinksInPath().path
        let url = given.hasPrefix("/") ? URL(fileURLWithPath: given) : package.appendingPathComponent(given)
        let full = url.resolvingSymlinksInPath().path
        guard full == base || full.hasPrefix(base + "/") else {
            throw UsageError(description: "--schemas names '\(given)', which is outside the package's folder \(base)")
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue {
            throw UsageError(
                description: "--schemas names '\(given)', which is a file; name the folder that holds "
                    + "the types' folders"
            )
        }
        return full == base ? "." : String(full.dropFirst(base.count + 1))
    }

    /// The line of a commit message that accepts the change of a shipped version's file.
    static let acceptanceKey = "Schema-Change-Accepted:"

    /// The schema files whose changes a commit since `ref` accepts, each with the commit's short
    /// hash: the paths, from the repository's root, on the commits' `Schema-Change-Accepted:`
    /// lines. A file that differs from what `HEAD` holds is not accepted, since no commit says
    /// why it changed again.
    static func acceptedChanges(git: Git, since ref: String) throws -> [String: String] {
        let log = try git.run(["log", "--format=%h%n%B%x00", "\(ref)..HEAD"])
        var accepted: [String: String] = [:]
        for entry in String(decoding: log, as: UTF8.self).split(separator: "\u{0}") {
            let lines = entry.split(separator: "\n", omittingEmptySubsequences: true)
            guard let commit = lines.first?.trimmingCharacters(in: .whitespaces) else { continue }
            for line in lines.dropFirst() where line.hasPrefix(acceptanceKey) {
                let path = line.dropFirst(acceptanceKey.count).trimmingCharacters(in: .whitespaces)
                if !path.isEmpty, accepted[path] == nil {
                    accepted[path] = commit
                }
            }
        }
        // `git diff --quiet` exits with 1 for a file that differs from HEAD, which `run` throws.
        let root = try git.run(["rev-parse", "--show-toplevel"])
        let rootPath = String(decoding: root, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return accepted.filter { path, _ in
            (try? Git(directory: URL(fileURLWithPath: rootPath)).run(["diff", "--quiet", "HEAD", "--", path])) != nil
        }
    }

    static func main() {
        let result = run(arguments: Array(CommandLine.arguments.dropFirst()))
        if !result.output.isEmpty { print(result.output) }
        if !result.errors.isEmpty {
            FileHandle.standardError.write(Data((result.errors + "\n").utf8))
        }
        exit(result.status.rawValue)
    }
}
