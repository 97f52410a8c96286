import Foundation
import VersionedCodableSchema

/// Which way a new version must stay compatible with older ones, in the words
/// `VersionCompatibility` of VersionedCodableTesting uses: backward (the new version reads what
/// the older one wrote), forward (the older one reads what the new version writes), or full
/// (both); each with the version before it only, or, in its transitive form, with every older
/// version of the type.
enum CompatibilityMode: String, CaseIterable {
    case backward, forward, full
    case backwardTransitive = "backward-transitive"
    case forwardTransitive = "forward-transitive"
    case fullTransitive = "full-transitive"

    var checksBackward: Bool { self != .forward && self != .forwardTransitive }
    var checksForward: Bool { self != .backward && self != .backwardTransitive }
    /// Whether every older version is compared, not only the one before.
    var isTransitive: Bool { self == .backwardTransitive || self == .forwardTransitive || self == .fullTransitive }

    /// The mode from its name: as the check spells it (`backward-transitive`), or as a schema
    /// registry and `VersionCompatibility`'s description do (`BACKWARD_TRANSITIVE`).
    init?(name: String) {
        self.init(rawValue: name.lowercased().replacingOccurrences(of: "_", with: "-"))
    }
}

/// What the check found about one version of one type.
struct Finding: Equatable {
    enum Kind: String {
        /// A version the ref has whose file differs now.
        case shippedVersionChanged = "shipped-version-changed"
        /// A version the ref has whose file is gone.
        case versionRemoved = "version-removed"
        /// A version the ref does not have.
        case versionAdded = "version-added"
        /// A new version that breaks the mode with the version before it.
        case incompatible = "incompatible"
    }

    let kind: Kind
    let version: String
    /// The file the finding is about, from the package's folder.
    let file: String
    /// One line per changed field, or per field that breaks the mode.
    var details: [String]
    /// For an incompatible version, the version it was compared with.
    var previousVersion: String? = nil

    /// The commit whose message accepts this change of a shipped version, when one does.
    var acceptedIn: String? = nil

    var isBreaking: Bool { kind != .versionAdded && acceptedIn == nil }

    var message: String {
        let accepted = acceptedIn.map { ", accepted in commit \($0)" } ?? ""
        return switch kind {
        case .shippedVersionChanged: "\(version) is shipped and its schema changed\(accepted)"
        case .versionRemoved: "\(version) is shipped and its schema file was removed\(accepted)"
        case .versionAdded: "\(version) is new"
        case .incompatible: "\(version) is not \(mode ?? "") compatible with \(previousVersion ?? "")"
        }
    }

    /// The mode an incompatible version breaks.
    var mode: String? = nil
}

/// The findings for one type's folder.
struct TypeReport: Equatable {
    /// The folder's last component: `Poem`.
    let typeName: String
    /// The folder, from the package's folder.
    let folder: String
    var findings: [Finding]
    /// The mode the type's folder declares in its `compatibility.txt`, if it does.
    var declaredMode: CompatibilityMode? = nil
}

/// The whole check's result.
struct CheckReport: Equatable {
    let ref: String
    let mode: CompatibilityMode
    /// How many schema files the working tree and the ref hold together.
    let filesCompared: Int
    var types: [TypeReport]

    var breaks: [Finding] { types.flatMap(\.findings).filter(\.isBreaking) }
    var isClean: Bool { breaks.isEmpty }

    /// The report with the changes of shipped versions whose files `accepted` names, by their
    /// path from the repository's root (`pathPrefix` and the file's path), marked as accepted in
    /// the commit it gives.
    func accepting(_ accepted: [String: String], pathPrefix: String) -> CheckReport {
        var copy = self
        for typeIndex in copy.types.indices {
            for index in copy.types[typeIndex].findings.indices {
                let finding = copy.types[typeIndex].findings[index]
                guard finding.kind == .shippedVersionChanged || finding.kind == .versionRemoved,
                    let commit = accepted[pathPrefix + finding.file]
                else { continue }
                copy.types[typeIndex].findings[index].acceptedIn = commit
            }
        }
        return copy
    }
}

/// A problem that stops the check before it can say anything: the usage-error status.
struct UsageError: Error, Equatable, CustomStringConvertible {
    let description: String
}

/// Compares the schema files of the working tree with a ref's.
struct SchemaCheck {
    let now: any SchemaSource
    let then: any SchemaSource
    let ref: String
    let folder: String
    /// The mode of types whose folders declare none.
    var mode: CompatibilityMode

    /// The file in a type's folder that declares the type's mode, in the words `--mode` takes.
    static let modeFileName = "compatibility.txt"

    /// The mode a type's folder declares in the working tree, if it does.
    private func declaredMode(of typeFolder: String) throws -> CompatibilityMode? {
        let path = typeFolder + "/" + Self.modeFileName
        guard let data = try now.declaration(at: path) else { return nil }
        let name = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let mode = CompatibilityMode(name: name) else {
            throw UsageError(
                description: "\(path) names the mode '\(name)', which is not one of "
                    + CompatibilityMode.allCases.map(\.rawValue).joined(separator: ", ")
            )
        }
        return mode
    }

    func run() throws -> CheckReport {
        let current = try now.files(under: folder)
        let shipped = try then.files(under: folder)
        guard !current.isEmpty || !shipped.isEmpty else {
            throw UsageError(
                description: "no schema files (<Type>/v<N>.schema.json or <Type>/unversioned.schema.json) under "
                    + "'\(folder)' in the working tree or at \(ref): nothing was checked"
            )
        }
        let currentSet = Set(current)
        let shippedContents = try readContents(of: shipped.filter(currentSet.contains), from: then, at: ref)
        let currentByFolder = Dictionary(grouping: current, by: \.typeFolder)
        let shippedByFolder = Dictionary(grouping: shipped, by: \.typeFolder)
        var types: [TypeReport] = []
        for typeFolder in Set(currentByFolder.keys).union(shippedByFolder.keys).sorted() {
            let nowFiles = (currentByFolder[typeFolder] ?? []).sorted()
            let thenFiles = Set(shippedByFolder[typeFolder] ?? [])
            var findings: [Finding] = []
            for file in thenFiles.sorted() {
                guard nowFiles.contains(file) else {
                    findings.append(
                        Finding(kind: .versionRemoved, version: file.versionName, file: file.path, details: [])
                    )
                    continue
                }
                let old = try schema(file, data: shippedContents[file], at: ref)
                let new = try schema(file, from: now, at: "the working tree")
                let changes = new.changes(since: old)
                if !changes.isEmpty {
                    findings.append(
                        Finding(
                            kind: .shippedVersionChanged,
                            version: file.versionName,
                            file: file.path,
                            details: changes.map(\.description)
                        )
                    )
                }
            }
            // A type's own declaration wins over --mode, as the type knows who reads it.
            let declared = nowFiles.isEmpty ? nil : try declaredMode(of: typeFolder)
            let mode = declared ?? self.mode
            for (index, file) in nowFiles.enumerated() where !thenFiles.contains(file) {
                var added = Finding(kind: .versionAdded, version: file.versionName, file: file.path, details: [])
                // Read even where nothing is compared with it, so that a file that is not a
                // schema is a usage error wherever it stands.
                let newSchema = try schema(file, from: now, at: "the working tree")
                guard index > 0 else {
                    findings.append(added)
                    continue
                }
                // Fields are compared only with the versions whose builds read this one's
                // documents with their own type, or write them back, as its declaration says;
                // every other document goes through the chain's steps, which carry renames and
                // every other change.
                guard let version = file.version,
                    let builds = Self.olderBuilds(declaredIn: newSchema, version: version)
                else {
                    added.details = [
                        "no older build reads it with its own type (it declares no readable-from version): "
                            + "the chain's steps carry every change, so its fields are not compared"
                    ]
                    findings.append(added)
                    continue
                }
                // Each older version, newest first, with what its builds do with this version's
                // documents that the mode asks about: the version before only, or every one in a
                // transitive mode.
                var comparisons: [(file: SchemaFile, forward: Bool, backward: Bool)] = []
                for older in nowFiles[..<index].reversed() {
                    let olderVersion = older.version ?? Int.min
                    let forward = mode.checksForward && olderVersion >= builds.readableFrom
                    let backward = mode.checksBackward && olderVersion >= (builds.writableFrom ?? Int.max)
                    if forward || backward { comparisons.append((older, forward, backward)) }
                    if !mode.isTransitive { break }
                }
                let writers = builds.writableFrom.map { ", and builds of v\($0) and later write it back" } ?? ""
                added.details = [
                    "builds of v\(builds.readableFrom) and later read it with their own type\(writers): compared with "
                        + (comparisons.isEmpty ? "none" : comparisons.map(\.file.versionName).joined(separator: ", "))
                ]
                findings.append(added)
                for comparison in comparisons {
                    let problems = try compatibilityProblems(
                        from: schema(comparison.file, from: now, at: "the working tree"),
                        to: newSchema,
                        old: comparison.file.versionName,
                        new: file.versionName,
                        version: version,
                        forward: comparison.forward,
                        backward: comparison.backward
                    )
                    if !problems.isEmpty {
                        var finding = Finding(
                            kind: .incompatible,
                            version: file.versionName,
                            file: file.path,
                            details: problems
                        )
                        finding.previousVersion = comparison.file.versionName
                        finding.mode = mode.rawValue
                        findings.append(finding)
                    }
                }
            }
            let name = String(typeFolder.split(separator: "/").last ?? "")
            types.append(TypeReport(typeName: name, folder: typeFolder, findings: findings, declaredMode: declared))
        }
        return CheckReport(ref: ref, mode: mode, filesCompared: current.count + shipped.count, types: types)
    }

    private func readContents(
        of files: [SchemaFile],
        from source: any SchemaSource,
        at place: String
    ) throws
        -> [SchemaFile: Data]
    {
        do {
            return try source.contents(of: files)
        } catch {
            throw UsageError(description: "the schema files could not be read at \(place): \(error)")
        }
    }

    private func schema(_ file: SchemaFile, from source: any SchemaSource, at place: String) throws -> JSONSchema {
        let data: Data
        do {
            data = try source.contents(of: file)
        } catch {
            throw UsageError(description: "\(file.path) could not be read at \(place): \(error)")
        }
        return try schema(file, data: data, at: place)
    }

    private func schema(_ file: SchemaFile, data: Data?, at place: String) throws -> JSONSchema {
        guard let data else {
            throw UsageError(description: "\(file.path) could not be read at \(place)")
        }
        do {
            return try JSONDecoder().decode(JSONSchema.self, from: data)
        } catch {
            throw UsageError(description: "\(file.path) at \(place) is not a JSON schema: \(Self.describe(error))")
        }
    }

    private static func describe(_ error: any Error) -> String {
        guard case DecodingError.dataCorrupted(let context) = error else { return "\(error)" }
        let underlying = (context.underlyingError as? NSError)?.localizedDescription
        return [context.debugDescription, underlying].compactMap { $0 }.joined(separator: ": ")
    }

    /// The oldest versions whose builds read documents of `version` with their own type, and
    /// write them back, from the declaration the version's schema allows beside its version
    /// (`versionReadableFrom` and `versionWritableFrom` beside `version`, whatever the version's
    /// key and place): each key's `minimum`, or the version before where a file recorded without
    /// one does not say. `writableFrom` is `nil` where older builds do not write the documents
    /// back; the whole is `nil` when the schema declares no readers.
    static func olderBuilds(declaredIn schema: JSONSchema, version: Int) -> (readableFrom: Int, writableFrom: Int?)? {
        let properties = schema.properties ?? [:]
        func least(_ declaration: JSONSchema) -> Int {
            declaration.minimum.map { NSDecimalNumber(decimal: $0).intValue } ?? version - 1
        }
        for (key, property) in properties.sorted(by: { $0.key < $1.key })
        where property.constValue == .number(Decimal(version)) {
            guard let readable = properties[key + "ReadableFrom"] else { continue }
            return (least(readable), properties[key + "WritableFrom"].map(least))
        }
        for (_, property) in properties.sorted(by: { $0.key < $1.key }) {
            if let builds = olderBuilds(declaredIn: property, version: version) { return builds }
        }
        return nil
    }

    /// The fields where `new` breaks compatibility with `old`, one line each: `forward` when
    /// builds of `old` read documents of `new` with their own type, `backward` when they also
    /// write them back, for `new` to read.
    ///
    /// Forward: a field `old` requires that `new` does not always write, or whose JSON types or
    /// values (an enumeration's cases, a constant) include one `old` does not read. Backward: a
    /// field `new` requires that `old` knows and does not always write, or whose JSON types or
    /// values no longer include one `old` writes, or a field below the root that `old` does not
    /// know, required or not, since an older build writes nested values with its own type and
    /// drops it; a field that `old` does not know at the root, in an object on the way to `new`'s
    /// version (`_metadata`), or at the root of a ``Versioned`` part, is not a problem, since an
    /// older build writes back the keys it does not read there as they came. The walk follows
    /// references, the value of an optional, array elements and dictionary values; a versioned
    /// part is compared by the version each side writes (see ``CompatibilityWalk``).
    func compatibilityProblems(
        from old: JSONSchema,
        to new: JSONSchema,
        old oldName: String,
        new newName: String,
        version: Int,
        forward: Bool,
        backward: Bool
    )
        -> [String]
    {
        var walk = CompatibilityWalk(
            oldRoot: old,
            newRoot: new,
            names: (oldName, newName),
            version: version,
            forward: forward,
            backward: backward
        )
        walk.compare(old, new, field: "", keeping: Self.objectsToVersion(in: new, version: version) ?? [""])
        return walk.problems
    }

    /// The paths of the objects from the root to the one that holds `version`'s constant, the
    /// root's as `""`: where an older build keeps the keys it does not read.
    static func objectsToVersion(in schema: JSONSchema, version: Int, at path: String = "") -> Set<String>? {
        let properties = schema.properties ?? [:]
        if properties.values.contains(where: { $0.constValue == .number(Decimal(version)) }) {
            return [path]
        }
        for (key, property) in properties.sorted(by: { $0.key < $1.key }) {
            if let below = objectsToVersion(in: property, version: version, at: path.isEmpty ? key : "\(path).\(key)") {
                return below.union([path])
            }
        }
        return nil
    }

    /// Whether a field of these JSON types reads a value of `type`: a number reads an integer.
    static func accepts(_ types: Set<String>, _ type: String) -> Bool {
        types.contains(type) || (type == "integer" && types.contains("number"))
    }
}
