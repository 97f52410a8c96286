import Foundation
import VersionedCodable

extension APIVersions {
    /// Reads a client's edit sent at an API version and applies it to the stored value: every
    /// field the client could see takes the client's value, every field, enum case and part it
    /// could not see keeps the stored one.
    ///
    /// The body is read as ``decode(_:from:at:)`` reads it, and merged as
    /// ``merge(_:at:into:)`` merges; the result is checked against the body as the client's
    /// version reads it, so that a field the client sends back exactly as it was shown keeps
    /// its stored value whatever the chain's steps make of it on the way up and down.
    ///
    /// - Parameters:
    ///   - type: The current version of the body's type.
    ///   - body: The request's JSON body.
    ///   - version: The client's API version.
    ///   - stored: The value as stored, which the client read before its edit.
    /// - Returns: The value to store.
    /// - Throws: What ``decode(_:from:at:)`` and ``merge(_:at:into:)`` throw.
    public func merge<Value: VersionedCodable>(
        _ type: Value.Type,
        from body: Data,
        at version: APIVersion,
        into stored: Value
    ) throws -> Value {
        let coders = try declared(version)
        if coders.version.showsOnlyCurrentVersions {
            return try read(type, from: body, at: coders, keepingSent: false).value
        }
        let (edit, sent) = try read(type, from: body, at: coders, keepingSent: true)
        return try merge(edit, sent: sent, at: coders, into: stored)
    }

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
    /// value.
    ///
    /// An element of an array merges with the stored element the client shows to be the same
    /// one, so that a field the client cannot see never moves to another element:
    ///
    /// - Elements that carry an identity the client sees (an `id` member, or what
    ///   ``elementIdentity`` names for the array) are matched by it, wherever they are: the
    ///   client may remove, insert, move and edit elements in one edit. An element whose
    ///   identity is not stored, or that carries none, is new and taken as sent; a stored element
    ///   whose identity is not sent is removed. An edit that changes an element's identity
    ///   removes that element and adds another. Two elements with one identity, sent or
    ///   stored, are refused.
    /// - Elements without an identity are matched only where that cannot be mistaken: an
    ///   element sent back exactly as it was shown, moved or not, keeps its stored value, and
    ///   new or changed elements are taken as sent when every stored element they could stand
    ///   for holds nothing the client cannot see. Otherwise the edit must change elements in
    ///   place: as many elements as were shown, each unchanged one where it was, each changed
    ///   one merged with the stored element at its place. Anything else (an element inserted,
    ///   removed or moved beside a stored element that holds what the client cannot see) is
    ///   ``APIVersionError/cannotMerge(type:apiVersion:path:reason:)`` naming the array.
    ///
    /// The result is then written at the API version again and must be exactly the edit as
    /// that version shows it; where the steps lose information both ways (a split field whose
    /// parts the client's value cannot be cut back into, say), the merge throws
    /// ``APIVersionError/cannotMerge(type:apiVersion:path:reason:)`` rather than store a
    /// value the client did not write. This method compares with the edit written again at the
    /// API version; ``merge(_:from:at:into:)``, which has the body, compares with what the client
    /// sent, so that a field sent back as it was shown always passes.
    ///
    /// At an API version that shows every type as its current version, the edit is the result;
    /// an edit that changes nothing the client sees gives the stored value back as it is.
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
        let coders = try declared(version)
        if coders.version.showsOnlyCurrentVersions {
            return edit
        }
        return try merge(edit, sent: nil, at: coders, into: stored)
    }

    /// The merge, checked against `sent` (the body as its version writes it back) when there
    /// is one, and otherwise against the edit written at the API version.
    private func merge<Value: VersionedCodable>(
        _ edit: Value,
        sent: JSONTree?,
        at coders: Coders,
        into stored: Value
    ) throws -> Value {
        let version = coders.version
        let typeName = name(of: Value.self)
        // The stored value as the client saw it: written with the service's strategies (a
        // date as the client got it), read back as the service reads a request.
        let seen: Value
        let shownStored: JSONTree
        do {
            let shown = try coders.shownEncoder.encode(versioned: stored)
            shownStored = try JSONTree(parsing: Array(shown))
            seen = try coders.decoder.decode(versioned: Value.self, from: shown)
        } catch {
            throw APIVersionError.cannotWrite(type: typeName, apiVersion: version.name, underlying: error)
        }
        let base = try tree(seen, typeName, version)
        let ours = try tree(stored, typeName, version)
        let theirs = try tree(edit, typeName, version)
        // The client changed nothing: the stored value stays as it is.
        if theirs == base || sent == shownStored {
            return stored
        }
        if ours == base {
            return edit
        }
        let merge = ThreeWayMerge(type: typeName, apiVersion: version.name, identity: elementIdentity)
        guard let merged = try merge.merge(base: base, ours: ours, theirs: theirs, path: "", pattern: "") else {
            return edit
        }
        do {
            let result = try mergeDecoder.decode(Value.self, from: Data(merged.bytes))
            let shownResult = try JSONTree(parsing: Array(coders.shownEncoder.encode(versioned: result)))
            let shownEdit = try sent ?? JSONTree(parsing: Array(coders.shownEncoder.encode(versioned: edit)))
            // Compared whatever order a set or a dictionary is written in this time: an array's
            // merged elements follow the edit's order, so only those can differ in order.
            if shownResult == shownEdit || shownResult.withArraysSorted == shownEdit.withArraysSorted {
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
                reason: "the stored value with the edit applied does not read back as \(typeName): "
                    + escapedForMessage(String(describing: error), limit: 400)
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
                reason: "the value cannot be written to compare: "
                    + escapedForMessage(String(describing: error), limit: 400)
            )
        }
    }
}

/// The three-way merge of the encoded stored value (ours), the value as the client saw it
/// (base) and the client's edit (theirs). An absent key is `nil`.
///
/// `path` is where a value is, for errors (`tasks[3].title`); `pattern` is the same without
/// indexes (`tasks.title`), for the arrays ``ElementIdentity`` names.
struct ThreeWayMerge {
    let type: String
    let apiVersion: String
    let identity: ElementIdentity

    func merge(base: JSONTree?, ours: JSONTree?, theirs: JSONTree?, path: String, pattern: String) throws -> JSONTree? {
        if theirs == base { return ours }
        if ours == base { return theirs }
        switch (base, ours, theirs) {
        case (.object(let base)?, .object(let ours)?, .object(let theirs)?):
            return .object(try mergeMembers(base: base, ours: ours, theirs: theirs, path: path, pattern: pattern))
        case (.array(let base)?, .array(let ours)?, .array(let theirs)?):
            if let member = identity.member(forArrayAt: pattern),
                let merged = try mergeIdentified(base: base, ours: ours, theirs: theirs, by: member, path, pattern)
            {
                return .array(merged)
            }
            return .array(try mergeElements(base: base, ours: ours, theirs: theirs, path: path, pattern: pattern))
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
        path: String,
        pattern: String
    ) throws -> [JSONTree.Member] {
        let baseIndex = MemberIndex(base)
        let theirIndex = MemberIndex(theirs)
        let ourIndex = MemberIndex(ours)
        var result: [JSONTree.Member] = []
        result.reserveCapacity(max(ours.count, theirs.count))
        func add(_ name: String, _ our: JSONTree.Member?, _ their: JSONTree.Member?) throws {
            let child = pattern.isEmpty ? name : pattern + "." + name
            let merged = try merge(
                base: baseIndex.value(name, in: base),
                ours: our?.value,
                theirs: their?.value,
                path: path.isEmpty ? name : path + "." + name,
                pattern: child
            )
            if let merged, let text = (their ?? our)?.text {
                result.append(JSONTree.Member(name: name, text: text, value: merged))
            }
        }
        for our in ours {
            try add(our.name, our, theirIndex.member(our.name, in: theirs))
        }
        for their in theirs where ourIndex.member(their.name, in: ours) == nil {
            try add(their.name, nil, their)
        }
        return result
    }

    /// Elements matched by the member `member`, or `nil` when some stored element, or some
    /// element the client was shown, has no identity to match by.
    private func mergeIdentified(
        base: [JSONTree],
        ours: [JSONTree],
        theirs: [JSONTree],
        by member: String,
        _ path: String,
        _ pattern: String
    ) throws -> [JSONTree]? {
        guard let ourIdentities = identities(of: ours, member), let baseIdentities = identities(of: base, member)
        else { return nil }
        var stored: [JSONTree: (ours: Int, base: Int?)] = [:]
        stored.reserveCapacity(ours.count)
        for (index, identity) in ourIdentities.enumerated()
        where stored.updateValue((index, nil), forKey: identity) != nil {
            throw failure(path, "two stored elements have the same \(member), \(identity.shortText)")
        }
        for (index, identity) in baseIdentities.enumerated() {
            guard stored[identity]?.base == nil, stored[identity] != nil else {
                throw failure(
                    path,
                    "this API version's steps change the elements' \(member)s, so its elements cannot be matched"
                )
            }
            stored[identity]?.base = index
        }
        guard base.count == ours.count else {
            throw failure(path, "this API version's steps change the array's length, so its elements cannot be matched")
        }
        var sent: Set<JSONTree> = []
        sent.reserveCapacity(theirs.count)
        var result: [JSONTree] = []
        result.reserveCapacity(theirs.count)
        for (position, element) in theirs.enumerated() {
            guard let identity = Self.identity(of: element, member) else {
                result.append(element)
                continue
            }
            guard sent.insert(identity).inserted else {
                throw failure(
                    "\(path)[\(position)]",
                    "two elements sent have the same \(member), \(identity.shortText), so which stored element "
                        + "each one is cannot be told"
                )
            }
            guard let found = stored[identity], let baseIndex = found.base else {
                result.append(element)
                continue
            }
            let merged = try merge(
                base: base[baseIndex],
                ours: ours[found.ours],
                theirs: element,
                path: "\(path)[\(position)]",
                pattern: pattern
            )
            result.append(merged ?? element)
        }
        return result
    }

    /// The identity of each element, or `nil` when one has none.
    private func identities(of elements: [JSONTree], _ member: String) -> [JSONTree]? {
        var found: [JSONTree] = []
        found.reserveCapacity(elements.count)
        for element in elements {
            guard let identity = Self.identity(of: element, member) else { return nil }
            found.append(identity)
        }
        return found
    }

    /// An element's identity: the value of its member `member`, when it is a string or a
    /// number.
    private static func identity(of element: JSONTree, _ member: String) -> JSONTree? {
        guard case .leaf(let text)? = element[member: member], let first = text.first,
            first == UInt8(ascii: "\"") || first == UInt8(ascii: "-") || (0x30...0x39).contains(first)
        else { return nil }
        return .leaf(text)
    }

    private func mergeElements(
        base: [JSONTree],
        ours: [JSONTree],
        theirs: [JSONTree],
        path: String,
        pattern: String
    ) throws -> [JSONTree] {
        guard base.count == ours.count else {
            throw failure(path, "this API version's steps change the array's length, so its elements cannot be matched")
        }
        // Each element the client sent that equals an element of the base, matched in order.
        // Where it equals several, which the stored elements behind them tell apart by what the
        // client cannot see, which one the client meant cannot be told.
        var unused: [JSONTree: [Int]] = [:]
        for index in base.indices.reversed() {
            unused[base[index], default: []].append(index)
        }
        var used = Array(repeating: false, count: base.count)
        var match: [Int?] = []
        match.reserveCapacity(theirs.count)
        for (position, element) in theirs.enumerated() {
            guard let found = unused[element]?.popLast() else {
                match.append(nil)
                continue
            }
            if let others = unused[element], others.contains(where: { ours[$0] != ours[found] }) {
                throw failure(
                    "\(path)[\(position)]",
                    "elements the client sees as equal hold different values it does not see, so which "
                        + "stored element this one is cannot be told"
                )
            }
            used[found] = true
            match.append(found)
        }
        // An element sent that is not one of those shown may stand for any stored element not
        // sent back as it was: where none of those holds what the client cannot see, or no such
        // element was sent, nothing hidden can move.
        let hidden = base.indices.contains { !used[$0] && ours[$0] != base[$0] }
        if !hidden || !match.contains(nil) {
            return theirs.indices.map { match[$0].map { ours[$0] } ?? theirs[$0] }
        }
        guard theirs.count == base.count, match.indices.allSatisfy({ match[$0] == nil || match[$0] == $0 }) else {
            throw failure(
                path,
                "its elements have no \(identity.member(forArrayAt: pattern) ?? "identity") the client sees, and "
                    + "elements were inserted, removed or moved beside stored elements that hold what this API "
                    + "version does not show, so which stored element each one is cannot be told"
            )
        }
        return try theirs.indices.map { index in
            if match[index] != nil {
                return ours[index]
            }
            return try merge(
                base: base[index],
                ours: ours[index],
                theirs: theirs[index],
                path: "\(path)[\(index)]",
                pattern: pattern
            ) ?? theirs[index]
        }
    }

    private func failure(_ path: String, _ reason: String) -> APIVersionError {
        .cannotMerge(type: type, apiVersion: apiVersion, path: path, reason: reason)
    }
}

/// Finds an object's members by name: by looking through them when there are few, through a
/// dictionary when there are many, so that a merge stays linear in a large object.
private struct MemberIndex {
    private let positions: [String: Int]?

    init(_ members: [JSONTree.Member]) {
        guard members.count > 16 else {
            positions = nil
            return
        }
        var positions: [String: Int] = [:]
        positions.reserveCapacity(members.count)
        for (index, member) in members.enumerated() where positions[member.name] == nil {
            positions[member.name] = index
        }
        self.positions = positions
    }

    func member(_ name: String, in members: [JSONTree.Member]) -> JSONTree.Member? {
        guard let positions else { return members.first { $0.name == name } }
        return positions[name].map { members[$0] }
    }

    func value(_ name: String, in members: [JSONTree.Member]) -> JSONTree? {
        member(name, in: members)?.value
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
