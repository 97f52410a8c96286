import Foundation
import VersionedCodable

extension APIVersions {
    /// The stored value with a client's edit at an API version applied: every field the client
    /// could see takes the client's value, every field, enum case and part it could not see
    /// keeps the stored one.
    ///
    /// The chain decides what the client saw. The stored value is brought down to the versions
    /// the API version shows and back up: that is the value as the client knew it (the base).
    /// Where the edit equals the base, the client changed nothing and the stored value stays;
    /// where the stored value equals the base, it holds nothing the client could not see and
    /// the edit is taken. Where both differ, objects merge key by key and arrays element by
    /// element; a changed leaf (a string, a number, an enum's raw value) takes the client's
    /// value. Arrays:
    ///
    /// - Elements the client left as they were, moved or not, keep their stored values;
    ///   elements it removed are removed.
    /// - An element changed where it was is that stored element, edited: the two merge. An
    ///   element removed and another added at its place read the same way, so send them in
    ///   two edits when the stored element holds what the client cannot see.
    /// - A new element is taken as sent, when every element it could replace holds nothing
    ///   hidden.
    /// - Anything else (an element both changed and moved, an array whose length the steps
    ///   change) is ``APIVersionError/cannotMerge(type:apiVersion:path:reason:)``.
    ///
    /// The result is then written at the API version again and must be exactly the edit as
    /// that version shows it; where the steps lose information both ways (a split field whose
    /// parts the client's value cannot be cut back into, say), the merge throws
    /// ``APIVersionError/cannotMerge(type:apiVersion:path:reason:)`` rather than store a
    /// value the client did not write.
    ///
    /// At an API version that shows every type as its current version, the edit is the result;
    /// an edit that changes nothing the client sees gives the stored value back as it is.
    /// Elements are matched by what the client sees of them; elements the client sees as equal
    /// but that hold different hidden values cannot be told apart, and throw. A `Set`, or a
    /// dictionary written as an array, whose elements hold hidden values merges only when it is
    /// written in the same order as the stored one, and otherwise throws.
    ///
    /// - Parameters:
    ///   - edit: The client's value, as ``decode(_:from:at:)`` read it.
    ///   - version: The client's API version.
    ///   - stored: The value as stored, which the client read before its edit. Check that it is
    ///     still stored when you write the result (a revision, an ETag): the merge is only as
    ///     current as the value it is given.
    /// - Returns: The value to store.
    /// - Throws: ``APIVersionError/cannotMerge(type:apiVersion:path:reason:)``, and
    ///   ``APIVersionError/cannotWrite(type:apiVersion:underlying:)`` when the stored value
    ///   cannot be shown at the API version, so the client cannot have seen it;
    ///   ``APIVersionError/unknownVersion(_:served:)`` for a version that is not in the list.
    public func merge<Value: VersionedCodable>(
        _ edit: Value,
        at version: APIVersion,
        into stored: Value
    ) throws -> Value {
        let (version, _, shownEncoder) = try declared(version)
        if version.showsOnlyCurrentVersions {
            return edit
        }
        let typeName = name(of: Value.self)
        // The stored value as the client saw it: written with the service's strategies (a
        // date as the client got it), read back as the service reads a request.
        let seen: Value
        do {
            seen = try decoder.decode(versioned: Value.self, from: shownEncoder.encode(versioned: stored))
        } catch {
            throw APIVersionError.cannotWrite(type: typeName, apiVersion: version.name, underlying: error)
        }
        let base = try tree(seen, typeName, version)
        let ours = try tree(stored, typeName, version)
        let theirs = try tree(edit, typeName, version)
        // The client changed nothing: the stored value stays as it is.
        if theirs == base {
            return stored
        }
        if ours == base {
            return edit
        }
        let merge = ThreeWayMerge(type: typeName, apiVersion: version.name)
        guard let merged = try merge.merge(base: base, ours: ours, theirs: theirs, path: "") else {
            return edit
        }
        do {
            let result = try mergeDecoder.decode(Value.self, from: Data(merged.bytes))
            let shownResult = try JSONTree(parsing: Array(shownEncoder.encode(versioned: result)))
            let shownEdit = try JSONTree(parsing: Array(shownEncoder.encode(versioned: edit)))
            // Compared whatever order a set or a dictionary is written in this time: an array's
            // merged elements follow the edit's order, so only those can differ in order.
            if shownResult.withArraysSorted == shownEdit.withArraysSorted {
                return result
            }
            throw APIVersionError.cannotMerge(
                type: typeName,
                apiVersion: version.name,
                path: firstDifference(shownEdit, shownResult, path: ""),
                reason: "the chain's steps turn the edit, kept beside what this API version does not show, "
                    + "into another value than the one sent"
            )
        } catch let error as APIVersionError {
            throw error
        } catch {
            throw APIVersionError.cannotMerge(
                type: typeName,
                apiVersion: version.name,
                path: "",
                reason: "the stored value with the edit applied does not read back as \(typeName): \(error)"
            )
        }
    }

    private func tree(_ value: some Encodable, _ typeName: String, _ version: APIVersion) throws -> JSONTree {
        do {
            return try JSONTree(parsing: Array(mergeEncoder.encode(value)))
        } catch {
            throw APIVersionError.cannotMerge(
                type: typeName,
                apiVersion: version.name,
                path: "",
                reason: "the value cannot be written to compare: \(error)"
            )
        }
    }
}

/// The three-way merge of the encoded stored value (ours), the value as the client saw it
/// (base) and the client's edit (theirs). An absent key is `nil`.
struct ThreeWayMerge {
    let type: String
    let apiVersion: String

    func merge(base: JSONTree?, ours: JSONTree?, theirs: JSONTree?, path: String) throws -> JSONTree? {
        if theirs == base { return ours }
        if ours == base { return theirs }
        switch (base, ours, theirs) {
        case (.object(let base)?, .object(let ours)?, .object(let theirs)?):
            return .object(try mergeMembers(base: base, ours: ours, theirs: theirs, path: path))
        case (.array(let base)?, .array(let ours)?, .array(let theirs)?):
            guard base.count == ours.count else {
                throw failure(
                    path,
                    "this API version's steps change the array's length, so its elements cannot be matched"
                )
            }
            return .array(try mergeElements(base: base, ours: ours, theirs: theirs, path: path))
        case (_, .object?, let theirs), (_, .array?, let theirs):
            // The stored value holds what the client cannot see here, and the client replaced
            // it with something else than an object or array to merge with: removing it is the
            // one such edit that says what to do with the hidden part.
            guard theirs == nil || theirs?.isNull == true else {
                throw failure(
                    path,
                    "the value sent has another shape than the stored one, which holds what this API version does not show"
                )
            }
            return theirs
        default:
            return theirs
        }
    }

    private func mergeMembers(
        base: [JSONTree.Member],
        ours: [JSONTree.Member],
        theirs: [JSONTree.Member],
        path: String
    ) throws -> [JSONTree.Member] {
        var names: [String] = ours.map(\.name)
        for member in theirs where !names.contains(member.name) {
            names.append(member.name)
        }
        func find(_ name: String, _ members: [JSONTree.Member]) -> JSONTree.Member? {
            members.first { $0.name == name }
        }
        var result: [JSONTree.Member] = []
        for name in names {
            let our = find(name, ours)
            let their = find(name, theirs)
            let merged = try merge(
                base: find(name, base)?.value,
                ours: our?.value,
                theirs: their?.value,
                path: path.isEmpty ? name : path + "." + name
            )
            if let merged, let text = (their ?? our)?.text {
                result.append(JSONTree.Member(name: name, text: text, value: merged))
            }
        }
        return result
    }

    private func mergeElements(
        base: [JSONTree],
        ours: [JSONTree],
        theirs: [JSONTree],
        path: String
    ) throws
        -> [JSONTree]
    {
        // Each element the client sent that equals an element of the base, matched in order.
        // Where it equals several, which the stored elements behind them tell apart by what the
        // client cannot see, which one the client meant cannot be told.
        var unused: [JSONTree: [Int]] = [:]
        for index in base.indices.reversed() {
            unused[base[index], default: []].append(index)
        }
        var used = Array(repeating: false, count: base.count)
        var match: [Int?] = []
        for (position, element) in theirs.enumerated() {
            guard var candidates = unused[element], let found = candidates.popLast() else {
                match.append(nil)
                continue
            }
            if candidates.contains(where: { ours[$0] != ours[found] }) {
                throw failure(
                    "\(path)[\(position)]",
                    "elements the client sees as equal hold different values it does not see, so which "
                        + "stored element this one is cannot be told"
                )
            }
            unused[element] = candidates
            used[found] = true
            match.append(found)
        }
        let changed = theirs.indices.filter { match[$0] == nil }
        let unmatched = base.indices.filter { !used[$0] }
        if !changed.isEmpty, unmatched.contains(where: { ours[$0] != base[$0] }), changed != unmatched {
            throw failure(
                path,
                "elements were changed and moved, or added while others were removed, in an array whose "
                    + "elements hold what this API version does not show, so which stored element each one "
                    + "replaces cannot be told"
            )
        }
        let hidden = unmatched.contains { ours[$0] != base[$0] }
        return try theirs.indices.map { index in
            if let found = match[index] {
                return ours[found]
            }
            guard hidden, ours[index] != base[index] else { return theirs[index] }
            return try merge(base: base[index], ours: ours[index], theirs: theirs[index], path: "\(path)[\(index)]")
                ?? theirs[index]
        }
    }

    private func failure(_ path: String, _ reason: String) -> APIVersionError {
        .cannotMerge(type: type, apiVersion: apiVersion, path: path, reason: reason)
    }
}

/// Where two trees first differ, as a coding path.
func firstDifference(_ lhs: JSONTree?, _ rhs: JSONTree?, path: String) -> String {
    switch (lhs, rhs) {
    case (.object(let left)?, .object?):
        for member in left where member.value != rhs?[member: member.name] {
            return firstDifference(
                member.value,
                rhs?[member: member.name],
                path: path.isEmpty ? member.name : path + "." + member.name
            )
        }
        if case .object(let right)? = rhs, let extra = right.first(where: { lhs?[member: $0.name] == nil }) {
            return path.isEmpty ? extra.name : path + "." + extra.name
        }
        return path
    case (.array(let left)?, .array(let right)?) where left.count == right.count:
        for index in left.indices where left[index] != right[index] {
            return firstDifference(left[index], right[index], path: "\(path)[\(index)]")
        }
        return path
    default:
        return path
    }
}
