import Foundation

/// Everything a ``VersionPathSpec`` writes for one version, as a tree of keyed objects.
///
/// Encoding merges this tree into what the versioned type writes: each leaf is written as the
/// spec wrote it (same integer width, same string, same nested encodable), and each object is
/// merged into the object the type writes at the same place. Leaves that hold the version are
/// marked, because at those places an integer (or nothing) written by the type mirrors the
/// version and gives way to it, where any other value is a clash.
struct SpecTree: @unchecked Sendable {
    // `@unchecked` because a leaf may hold an `any Encodable` that the spec wrote; the tree is
    // built once, never changed, and only read afterwards.

    /// The root object of the document.
    let root: SpecObject

    /// How many objects the tree has, so that an encode can note which ones it has merged.
    let objectCount: Int
}

/// An object of a ``SpecTree``: its entries in the order the spec wrote them.
///
/// A class, so that the tree's types do not contain one another by value (which let the
/// compiler report a circular reference, depending on how the module's files were batched),
/// and so that passing an object around copies one reference.
final class SpecObject {
    /// The position of this object in a depth-first walk of the tree.
    let index: Int
    let entries: [(key: String, node: SpecNode)]
    /// Whether writing this object writes anything: objects that exist only to hold the place
    /// of a version that is `nil` are not written.
    let hasContent: Bool
    /// The keys from the root to this object, for error messages.
    let path: [String]

    /// Whether the object holds one key, `version`, as the default spec's root does: whether a
    /// key type can name it is kept per thread (see ``PerThreadAnswers``).
    let holdsOnlyVersionKey: Bool
    /// The version, when all the object holds is a version written as an `Int` under
    /// `version`, as the default spec writes it: written without walking the entries.
    let onlyVersion: Int?

    init(index: Int, entries: [(key: String, node: SpecNode)], hasContent: Bool, path: [String]) {
        self.holdsOnlyVersionKey = entries.count == 1 && entries[0].key == "version"
        if holdsOnlyVersionKey, case .leaf(let leaf, _) = entries[0].node, leaf.isVersion,
            case .int(let version)? = leaf.value
        {
            onlyVersion = version
        } else {
            onlyVersion = nil
        }
        self.index = index
        self.entries = entries
        self.hasContent = hasContent
        self.path = path
    }

    @inline(__always)
    func entry(_ key: String) -> SpecNode? {
        for entry in entries where entry.key == key {
            return entry.node
        }
        return nil
    }
}

/// A node of a ``SpecTree``.
enum SpecNode {
    case object(SpecObject)
    /// A single value, and the keys from the root to it, for error messages.
    case leaf(SpecLeaf, path: [String])
}

/// A value the spec writes at one key.
struct SpecLeaf {
    /// What to write, or `nil` to write nothing (the place of a `nil` version).
    let value: SpecValue?
    /// Whether the version is kept here.
    let isVersion: Bool
}

extension SpecTree {
    /// Builds the tree from what a spec recorded, marking the leaves at `versionPaths` and
    /// adding an empty place for each of them the spec did not write (a `nil` version).
    init(recorded: RecordedObject, versionPaths: [[String]]) {
        var counter = 0
        root = SpecTree.freeze(recorded, path: [], versionPaths: versionPaths, counter: &counter)
        objectCount = counter
    }

    private static func freeze(
        _ object: RecordedObject,
        path: [String],
        versionPaths: [[String]],
        counter: inout Int
    ) -> SpecObject {
        let index = counter
        counter += 1
        var entries: [(key: String, node: SpecNode)] = []
        var hasContent = false
        for (key, recorded) in object.entries {
            let childPath = path + [key]
            switch recorded {
            case .object(let child):
                let frozen = freeze(child, path: childPath, versionPaths: versionPaths, counter: &counter)
                hasContent = hasContent || frozen.hasContent
                entries.append((key, .object(frozen)))
            case .leaf(let value):
                hasContent = true
                entries.append(
                    (key, .leaf(SpecLeaf(value: value, isVersion: versionPaths.contains(childPath)), path: childPath))
                )
            }
        }
        // Places for versions the spec did not write at all (`encodeIfPresent(nil)`).
        for versionPath in versionPaths
        where versionPath.count > path.count && Array(versionPath.prefix(path.count)) == path {
            let key = versionPath[path.count]
            guard !entries.contains(where: { $0.key == key }) else {
                continue
            }
            if versionPath.count == path.count + 1 {
                entries.append((key, .leaf(SpecLeaf(value: nil, isVersion: true), path: path + [key])))
            } else {
                let placeholder = RecordedObject()
                let frozen = freeze(
                    placeholder,
                    path: path + [key],
                    versionPaths: versionPaths,
                    counter: &counter
                )
                entries.append((key, .object(frozen)))
            }
        }
        return SpecObject(index: index, entries: entries, hasContent: hasContent, path: path)
    }
}
