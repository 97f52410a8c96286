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
        // The client sent back exactly what it was shown: the stored value stays as it is.
        if let sent, sent == shownStored {
            return stored
        }
        let base = try tree(seen, typeName, version)
        let ours = try tree(stored, typeName, version)
        let theirs = try tree(edit, typeName, version)
        if ours == base {
            // Nothing is hidden: the edit is the value, as a new one would be.
            return edit
        }
        do {
            if theirs == base {
                // The client changed nothing the steps carry up: the stored value stays, if it
                // shows as what the client sent.
                guard let sent else { return stored }
                return try checked(stored, shown: shownStored, against: sent, typeName, version)
            }
            let shownEdit = try sent ?? JSONTree(parsing: Array(coders.shownEncoder.encode(versioned: edit)))
            let merge = ThreeWayMerge(
                type: typeName,
                apiVersion: version.name,
                identity: elementIdentity,
                unordered: { UnorderedPaths(of: stored, userInfo: self.mergeEncoder.userInfo) },
                shown: shownStored,
                shownEdit: shownEdit,
                shownKey: { coders.shownKey($0) },
                ours: ours
            )
            guard let merged = try merge.merge(base: base, ours: ours, theirs: theirs, path: "", pattern: "") else {
                return edit
            }
            let result = try mergeDecoder.decode(Value.self, from: Data(merged.bytes))
            let shownResult = try JSONTree(parsing: Array(coders.shownEncoder.encode(versioned: result)))
            return try checked(result, shown: shownResult, against: shownEdit, typeName, version)
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

    /// The result, when it shows at the API version as exactly what the client sent.
    private func checked<Value>(
        _ result: Value,
        shown: JSONTree,
        against sent: JSONTree,
        _ typeName: String,
        _ version: APIVersion
    ) throws -> Value {
        // Compared whatever order a set or a dictionary is written in this time: an array's
        // merged elements follow the edit's order, so only those can differ in order.
        if shown == sent || shown.withArraysSorted == sent.withArraysSorted {
            return result
        }
        throw APIVersionError.cannotMerge(
            type: typeName,
            apiVersion: version.name,
            path: firstDifference(sent, shown, path: ""),
            reason: "the chain's steps turn the edit, kept beside what this API version does not show, "
                + "into another value than the one sent"
        )
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
/// indexes (`tasks.title`), for the arrays ``ElementIdentity`` names and the sets and
/// dictionaries ``UnorderedPaths`` found.
struct ThreeWayMerge {
    let type: String
    let apiVersion: String
    let identity: ElementIdentity
    /// Finds the stored value's sets and dictionaries, once, when an array first needs it.
    private let findUnordered: () -> UnorderedPaths
    /// The stored value as the client's API version shows it: where an identity must be seen.
    let shown: JSONTree
    /// The edit as the client's API version shows it (what the client sent): where an element
    /// sent back as it was shown is told from one that was changed.
    let shownEdit: JSONTree
    /// A key as the service's key strategy writes it in what the client is shown.
    private let shownKey: (String) -> String
    /// The whole stored value, for the identities of every array at a pattern.
    let ours: JSONTree
    private let found = Found()

    /// What the merge worked out once per pattern.
    private final class Found {
        var unordered: UnorderedPaths?
        /// Per pattern and member: the identities the client's view of the stored value shows.
        var shownIdentities: [String: Set<Identity>] = [:]
        /// Per pattern and member: the identities of every stored element at the pattern.
        var storedIdentities: [String: Set<Identity>] = [:]
    }

    init(
        type: String,
        apiVersion: String,
        identity: ElementIdentity,
        unordered: @escaping () -> UnorderedPaths,
        shown: JSONTree,
        shownEdit: JSONTree,
        shownKey: @escaping (String) -> String,
        ours: JSONTree
    ) {
        self.shownEdit = shownEdit
        self.shownKey = shownKey
        self.type = type
        self.apiVersion = apiVersion
        self.identity = identity
        self.findUnordered = unordered
        self.shown = shown
        self.ours = ours
    }

    func merge(base: JSONTree?, ours: JSONTree?, theirs: JSONTree?, path: String, pattern: String) throws -> JSONTree? {
        if theirs == base { return ours }
        if ours == base {
            if ours == nil, let theirs {
                try checkNoneMoved(into: theirs, path: path, pattern: pattern)
            }
            return theirs
        }
        switch (base, ours, theirs) {
        case (.object(let base)?, .object(let ours)?, .object(let theirs)?):
            return .object(try mergeMembers(base: base, ours: ours, theirs: theirs, path: path, pattern: pattern))
        case (.array(let base)?, .array(let ours)?, .array(let theirs)?):
            if let member = identity.member(forArrayAt: pattern),
                let merged = try mergeIdentified(base: base, ours: ours, theirs: theirs, by: member, path, pattern)
            {
                return .array(merged)
            }
            switch unordered.kind(at: pattern) {
            case .dictionary?:
                return .array(try mergeEntries(base: base, ours: ours, theirs: theirs, path: path, pattern: pattern))
            case .set?:
                return .array(try mergeSet(base: base, ours: ours, theirs: theirs, path: path))
            case nil:
                return .array(try mergeElements(base: base, ours: ours, theirs: theirs, path: path, pattern: pattern))
            }
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

    private var unordered: UnorderedPaths {
        if let known = found.unordered { return known }
        let unordered = findUnordered()
        found.unordered = unordered
        return unordered
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
    /// element as the client saw it, has no identity to match by, or the client's version does
    /// not show it (an identity the step up makes, from a position or a title, is not one the
    /// client sees).
    private func mergeIdentified(
        base: [JSONTree],
        ours: [JSONTree],
        theirs: [JSONTree],
        by member: String,
        _ path: String,
        _ pattern: String
    ) throws -> [JSONTree]? {
        guard let ourIdentities = identities(of: ours, member), let baseIdentities = identities(of: base, member),
            isShown(baseIdentities, at: pattern, member, sentCount: theirs.count)
        else { return nil }
        var stored: [Identity: (ours: Int, base: Int?)] = [:]
        stored.reserveCapacity(ours.count)
        for (index, identity) in ourIdentities.enumerated()
        where stored.updateValue((index, nil), forKey: identity) != nil {
            throw failure(path, "two stored elements have the same \(member), \(identity)")
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
        var sent: Set<Identity> = []
        sent.reserveCapacity(theirs.count)
        var result: [JSONTree] = []
        result.reserveCapacity(theirs.count)
        for (position, element) in theirs.enumerated() {
            guard let identity = Identity(of: element, member) else {
                try checkNoneMoved(into: element, path: "\(path)[\(position)]", pattern: pattern)
                result.append(element)
                continue
            }
            guard sent.insert(identity).inserted else {
                throw failure(
                    "\(path)[\(position)]",
                    "two elements sent have the same \(member), \(identity), so which stored element "
                        + "each one is cannot be told"
                )
            }
            guard let found = stored[identity], let baseIndex = found.base else {
                if storedIdentities(at: pattern, member).contains(identity) {
                    throw failure(
                        "\(path)[\(position)]",
                        "the element with \(member) \(identity) was moved here from another list, and "
                            + "elements keep what this API version does not show only within their own list"
                    )
                }
                try checkNoneMoved(into: element, path: "\(path)[\(position)]", pattern: pattern)
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

    /// Whether the client sees `identities`, the base elements' at `pattern`: each on its own
    /// element as the client's version shows it, where that is known for the one array (so that
    /// an id the step up makes from an element's place is not taken for one because another
    /// value shown, a quantity, happens to equal it), and otherwise among the values shown on the
    /// elements of the arrays there: a set's view lists its elements in an order of its own.
    private func isShown(_ identities: [Identity], at pattern: String, _ member: String, sentCount: Int) -> Bool {
        guard unordered.kind(at: pattern) == nil,
            let view = clientView(at: pattern, shownCount: identities.count, sentCount: sentCount)
        else {
            return identities.allSatisfy(shownIdentities(at: pattern, member).contains)
        }
        return zip(identities, view.shown).allSatisfy { identity, element in
            guard case .object(let members) = element else { return false }
            return members.contains { Identity($0.value) == identity }
        }
    }

    /// The identity of each element, or `nil` when one has none.
    private func identities(of elements: [JSONTree], _ member: String) -> [Identity]? {
        var found: [Identity] = []
        found.reserveCapacity(elements.count)
        for element in elements {
            guard let identity = Identity(of: element, member) else { return nil }
            found.append(identity)
        }
        return found
    }

    /// Every value the client's view shows directly on the elements of the arrays at `pattern`:
    /// an identity the client sees is one of them, whatever the member is called there.
    private func shownIdentities(at pattern: String, _ member: String) -> Set<Identity> {
        if let cached = found.shownIdentities[pattern + "\u{0}" + member] { return cached }
        var values: Set<Identity> = []
        for element in Self.elements(of: shown, at: shownPattern(of: pattern)) {
            guard case .object(let members) = element else { continue }
            for shownMember in members {
                if let identity = Identity(shownMember.value) { values.insert(identity) }
            }
        }
        found.shownIdentities[pattern + "\u{0}" + member] = values
        return values
    }

    /// The identities of the stored elements of every array at `pattern`, under any key of the
    /// dictionaries with string keys on the way (the cards of every column of a `[String: Column]`).
    private func storedIdentities(at pattern: String, _ member: String) -> Set<Identity> {
        if let cached = found.storedIdentities[pattern + "\u{0}" + member] { return cached }
        let values = Set(Self.elements(of: ours, at: anyKey(pattern)).compactMap { Identity(of: $0, member) })
        found.storedIdentities[pattern + "\u{0}" + member] = values
        return values
    }

    /// The elements of every array at `pattern` in `tree`, arrays on the way passed through.
    /// A pattern that the tree does not have (a field the client's version names otherwise)
    /// gives none.
    static func elements(of tree: JSONTree, at pattern: String) -> [JSONTree] {
        // An array of arrays holds its elements one level down, at the same pattern.
        func flattened(_ node: JSONTree) -> [JSONTree] {
            guard case .array(let elements) = node else { return [node] }
            return elements.flatMap(flattened)
        }
        return values(of: tree, at: pattern).flatMap { node -> [JSONTree] in
            guard case .array = node else { return [] }
            return flattened(node)
        }
    }

    /// The values at `pattern` in `tree`, arrays on the way passed through: what ``elements(of:at:)``
    /// takes the elements of.
    private static func values(of tree: JSONTree, at pattern: String) -> [JSONTree] {
        var current = [tree]
        for name in pattern.split(separator: ".", omittingEmptySubsequences: false) where !pattern.isEmpty {
            current = current.flatMap { node -> [JSONTree] in
                if name == anyKeyName {
                    guard case .object(let members) = node else { return [] }
                    return members.map(\.value)
                }
                switch node {
                case .array(let elements):
                    return elements.compactMap { $0[member: String(name)] }
                default:
                    return node[member: String(name)].map { [$0] } ?? []
                }
            }
        }
        return current
    }

    /// `pattern` as the client's view names its keys, under the service's key strategy.
    private func shownPattern(of pattern: String) -> String {
        guard !pattern.isEmpty else { return pattern }
        return pattern.split(separator: ".", omittingEmptySubsequences: false)
            .map { $0 == Self.anyKeyName ? String($0) : shownKey(String($0)) }.joined(separator: ".")
    }

    /// Throws where a value the client added (a column under a new key) holds an element whose
    /// identity, one the client sees, is a stored element's in another list: it was moved there,
    /// and would come without what this API version does not show.
    private func checkNoneMoved(into tree: JSONTree, path: String, pattern: String) throws {
        switch tree {
        case .object(let members):
            for member in members {
                try checkNoneMoved(
                    into: member.value,
                    path: path.isEmpty ? member.name : path + "." + member.name,
                    pattern: pattern.isEmpty ? member.name : pattern + "." + member.name
                )
            }
        case .array(let elements):
            if let member = identity.member(forArrayAt: pattern) {
                let stored = storedIdentities(at: pattern, member)
                let seen = stored.isEmpty ? [] : shownIdentities(at: anyKey(pattern), member)
                for (position, element) in elements.enumerated() {
                    if let found = Identity(of: element, member), stored.contains(found), seen.contains(found) {
                        throw failure(
                            "\(path)[\(position)]",
                            "the element with \(member) \(found) was moved here from another list, and "
                                + "elements keep what this API version does not show only within their own list"
                        )
                    }
                }
            }
            for (position, element) in elements.enumerated() {
                try checkNoneMoved(into: element, path: "\(path)[\(position)]", pattern: pattern)
            }
        default:
            return
        }
    }

    /// The name that stands for every key of a dictionary's object in a pattern.
    static let anyKeyName = "\u{0}*"

    /// `pattern` with each key of a dictionary with string keys on the way as ``anyKeyName``.
    private func anyKey(_ pattern: String) -> String {
        let names = pattern.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !pattern.isEmpty, names.count > 1 else { return pattern }
        var result = [names[0]]
        for index in 1..<names.count {
            let above = names[..<index].joined(separator: ".")
            result.append(unordered.kind(at: above) == .dictionary ? Self.anyKeyName : names[index])
        }
        return result.joined(separator: ".")
    }

    /// A dictionary whose keys are not strings, written as `[key, value, key, value, …]`: its
    /// values merge by key, wherever they are listed.
    private func mergeEntries(
        base: [JSONTree],
        ours: [JSONTree],
        theirs: [JSONTree],
        path: String,
        pattern: String
    ) throws -> [JSONTree] {
        func entries(_ elements: [JSONTree]) throws -> [JSONTree: JSONTree] {
            guard elements.count % 2 == 0 else { throw failure(path, "a dictionary's keys and values do not pair up") }
            var entries: [JSONTree: JSONTree] = [:]
            for index in stride(from: 0, to: elements.count, by: 2)
            where entries.updateValue(elements[index + 1], forKey: elements[index]) != nil {
                throw failure(path, "a dictionary has the key \(elements[index].shortText) twice")
            }
            return entries
        }
        let baseEntries = try entries(base)
        let ourEntries = try entries(ours)
        _ = try entries(theirs)
        guard Set(baseEntries.keys) == Set(ourEntries.keys) else {
            throw failure(
                path,
                "this API version's steps change the dictionary's keys, so its entries cannot be matched"
            )
        }
        var result: [JSONTree] = []
        result.reserveCapacity(theirs.count)
        for index in stride(from: 0, to: theirs.count, by: 2) {
            let key = theirs[index]
            result.append(key)
            // A value's own sets and dictionaries are found at the dictionary's pattern with `{}`.
            let merged = try merge(
                base: baseEntries[key],
                ours: ourEntries[key],
                theirs: theirs[index + 1],
                path: "\(path)[\(key.shortText)]",
                pattern: pattern + "{}"
            )
            result.append(merged ?? theirs[index + 1])
        }
        return result
    }

    /// A set whose elements have no identity: the stored and the client's view list them in
    /// orders of their own, so an element can be matched only by all it holds. The client may
    /// change it freely where no element holds what it cannot see, and otherwise only send it
    /// back as it was.
    private func mergeSet(base: [JSONTree], ours: [JSONTree], theirs: [JSONTree], path: String) throws -> [JSONTree] {
        let shownBase = Self.sorted(base)
        if Self.sorted(ours) == shownBase {
            return theirs
        }
        if Self.sorted(theirs) == shownBase {
            return ours
        }
        throw failure(
            path,
            "it is a set whose elements have no identity the client sees and hold what this API version does "
                + "not show, listed in an order of its own, so which stored element a changed one is cannot be "
                + "told: give its elements an identity"
        )
    }

    private static func sorted(_ elements: [JSONTree]) -> [[UInt8]] {
        elements.map(\.bytes).sorted { $0.lexicographicallyPrecedes($1) }
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
        // client cannot see, which one the client meant cannot be told. Compared as the client's
        // version shows them where that is known for this one array: a value the step up makes
        // from an element's place (an `id` from its offset) differs between an element and the
        // same element moved.
        let view = clientView(at: pattern, shownCount: base.count, sentCount: theirs.count)
        let shownBase = view?.shown ?? base
        var unused: [JSONTree: [Int]] = [:]
        for index in base.indices.reversed() {
            unused[shownBase[index], default: []].append(index)
        }
        var used = Array(repeating: false, count: base.count)
        var match: [Int?] = []
        match.reserveCapacity(theirs.count)
        for (position, element) in (view?.sent ?? theirs).enumerated() {
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
        let member = identity.member(forArrayAt: pattern)
        return try theirs.indices.map { index in
            if match[index] != nil {
                return ours[index]
            }
            // An element whose id changed at its place is another element, whatever the id's
            // worth as an identity: refused rather than given the hidden fields of the one before.
            if let member, let before = Identity(of: base[index], member),
                let after = Identity(of: theirs[index], member),
                before != after
            {
                throw failure(
                    "\(path)[\(index)]",
                    "the element's \(member) changed from \(before) to \(after) where the stored element holds what "
                        + "this API version does not show, so it is another element, not that one edited"
                )
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

    /// The elements of the array at `pattern` as the client's version shows the stored value
    /// and the edit, where each holds exactly one array there, of the lengths given; otherwise
    /// (arrays nested in arrays, a field the version names otherwise) `nil`.
    private func clientView(
        at pattern: String,
        shownCount: Int,
        sentCount: Int
    ) -> (shown: [JSONTree], sent: [JSONTree])? {
        let shownPattern = shownPattern(of: pattern)
        guard let shownElements = Self.onlyArray(in: shown, at: shownPattern),
            let sentElements = Self.onlyArray(in: shownEdit, at: shownPattern),
            shownElements.count == shownCount, sentElements.count == sentCount
        else {
            return nil
        }
        return (shownElements, sentElements)
    }

    /// The elements of the one array `tree` holds at `pattern`, or `nil` where it holds none, or
    /// several, counting arrays nested in an array there.
    private static func onlyArray(in tree: JSONTree, at pattern: String) -> [JSONTree]? {
        func isArray(_ node: JSONTree) -> Bool {
            if case .array = node { true } else { false }
        }
        let arrays = values(of: tree, at: pattern).filter(isArray)
        guard arrays.count == 1, case .array(let elements) = arrays[0], !elements.contains(where: isArray) else {
            return nil
        }
        return elements
    }

    private func failure(_ path: String, _ reason: String) -> APIVersionError {
        .cannotMerge(type: type, apiVersion: apiVersion, path: path, reason: reason)
    }
}

/// An element's identity as Swift compares it: a string by its characters (`"é"` however it
/// is composed), a number by its text, with zero's sign dropped.
enum Identity: Hashable, CustomStringConvertible {
    case string(String)
    case number(String)

    /// The value of `element`'s member `member`, when it is a string or a number.
    init?(of element: JSONTree, _ member: String) {
        guard let value = element[member: member] else { return nil }
        self.init(value)
    }

    /// A string or number leaf as an identity.
    init?(_ value: JSONTree) {
        if let string = value.stringValue {
            self = .string(string)
            return
        }
        guard case .leaf(let text) = value, let first = text.first,
            first == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
        else { return nil }
        let number = String(decoding: text, as: UTF8.self)
        self = .number(Double(number) == 0 ? "0" : number)
    }

    var description: String {
        switch self {
        case .string(let string): "\"" + escapedForMessage(string, limit: 64) + "\""
        case .number(let number): escapedForMessage(number, limit: 64)
        }
    }
}

/// Finds an object's members by name: by looking through them when there are few, through a
/// dictionary when there are many, so that a merge stays linear in a large object.
struct MemberIndex {
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
