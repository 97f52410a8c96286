import Foundation
import Testing
import VersionedCodable
import VersionedCodableAPI

/// A client at `version` reads `stored`, changes the JSON it was shown, and sends it back: the
/// value the service stores.
func clientEdit(
    _ stored: Contact,
    at version: APIVersion,
    with versions: APIVersions,
    _ change: (inout [String: Any]) -> Void
) throws -> Contact {
    let shown = try versions.encode(stored, at: version)
    var object = try #require(try JSONSerialization.jsonObject(with: shown) as? [String: Any])
    change(&object)
    let body = try JSONSerialization.data(withJSONObject: object)
    let edit = try versions.decode(Contact.self, from: body, at: version)
    return try versions.merge(edit, at: version, into: stored)
}

extension [String: Any] {
    /// The object at `key`'s array index `index`, changed in place.
    mutating func change(_ key: String, at index: Int, _ update: (inout [String: Any]) -> Void) {
        var array = self[key] as! [[String: Any]]
        update(&array[index])
        self[key] = array
    }
}

@Suite("An old client's edit keeps what it cannot see")
struct MergeTests {
    let versions: APIVersions
    let stored = ContactAPI.stored

    init() throws {
        versions = try ContactAPI.versions()
    }

    @Test("A renamed field takes the client's value; every hidden field, case and part stays")
    func renamedField() throws {
        let merged = try clientEdit(stored, at: ContactAPI.middle, with: versions) { $0["email"] = "ms@example.com" }
        var expected = stored
        expected.emailAddress = "ms@example.com"
        #expect(merged == expected)
    }

    @Test("A field split in two: the client's whole name, cut by the chain's step")
    func splitField() throws {
        var simple = stored
        simple.firstName = "Ada"
        simple.lastName = "Lovelace"
        let merged = try clientEdit(simple, at: ContactAPI.oldest, with: versions) { $0["name"] = "Ada Byron" }
        #expect(merged.firstName == "Ada")
        #expect(merged.lastName == "Byron")
        #expect(merged.kind == .team && merged.favorite && merged.nickname == "Em")
        #expect(merged.labels == simple.labels && merged.addresses == simple.addresses)
    }

    @Test("A split the steps cannot cut back: an error at the field, not a guessed name")
    func splitThatCannotBeCut() throws {
        // "Mary Ann Smith" comes back up as Mary / Ann Smith: the stored first name holds a
        // space the client's version cannot show, and the new name cannot be cut to keep it.
        #expect {
            try clientEdit(stored, at: ContactAPI.oldest, with: versions) { $0["name"] = "Mary Ann Jones" }
        } throws: { error in
            guard case .cannotMerge(let type, let apiVersion, let path, _) = error as? APIVersionError else {
                return false
            }
            return type == "Contact" && apiVersion == "2025-01-01" && path == "name"
        }
        #expect(stored.firstName == "Mary Ann")
    }

    @Test("A client that changes nothing gets the stored value back, hidden fields and all")
    func unchangedEdit() throws {
        for version in [ContactAPI.oldest, ContactAPI.middle, ContactAPI.newest] {
            #expect(try clientEdit(stored, at: version, with: versions) { _ in } == stored)
        }
    }

    @Test("An enum case the client cannot see stays until the client changes the field")
    func hiddenEnumCase() throws {
        let kept = try clientEdit(stored, at: ContactAPI.middle, with: versions) { $0["phone"] = "555-0199" }
        #expect(kept.kind == .team && kept.phone == "555-0199")
        let changed = try clientEdit(stored, at: ContactAPI.middle, with: versions) { $0["kind"] = "person" }
        #expect(changed.kind == .person)
    }

    @Test("Optional fields set to nil: the client's visible one is cleared, the hidden one kept")
    func optionalsSetToNil() throws {
        let cleared = try clientEdit(stored, at: ContactAPI.middle, with: versions) { $0["phone"] = NSNull() }
        #expect(cleared.phone == nil && cleared.nickname == "Em")
        let removed = try clientEdit(stored, at: ContactAPI.oldest, with: versions) { $0.removeValue(forKey: "phone") }
        #expect(removed.phone == nil && removed.nickname == "Em" && removed.favorite)
        let newest = try clientEdit(stored, at: ContactAPI.newest, with: versions) { $0["nickname"] = NSNull() }
        #expect(newest.nickname == nil)
    }

    @Test("Defaults of the steps up never replace stored values")
    func defaults() throws {
        let merged = try clientEdit(stored, at: ContactAPI.oldest, with: versions) { $0["email"] = "m@example.com" }
        #expect(merged.favorite && merged.labels == stored.labels && merged.addresses == stored.addresses)
        #expect(merged.emailAddress == "m@example.com")
    }

    @Test("An array of plain values: the edited element keeps its hidden field")
    func plainArrayElementEdited() throws {
        let merged = try clientEdit(stored, at: ContactAPI.middle, with: versions) {
            $0.change("labels", at: 1) { $0["text"] = "go" }
        }
        #expect(merged.labels == [.init(text: "work", color: "red"), .init(text: "go", color: "blue")])
    }

    @Test("Versioned parts: an edited part keeps its hidden field")
    func partEdited() throws {
        let merged = try clientEdit(stored, at: ContactAPI.middle, with: versions) {
            $0.change("addresses", at: 0) { $0["street"] = "9 Main St" }
        }
        #expect(
            merged.addresses[0].wrappedValue == Address(street: "9 Main St", city: "Springfield", postalCode: "11111")
        )
        #expect(merged.addresses[1] == stored.addresses[1])
    }

    @Test("Parts reordered, removed and added: each stored part keeps its hidden field")
    func partsMovedRemovedAdded() throws {
        let swapped = try clientEdit(stored, at: ContactAPI.middle, with: versions) {
            $0["addresses"] = Array(($0["addresses"] as! [Any]).reversed())
        }
        #expect(swapped.addresses.map(\.wrappedValue.postalCode) == ["22222", "11111"])
        let removed = try clientEdit(stored, at: ContactAPI.middle, with: versions) {
            $0["addresses"] = Array(($0["addresses"] as! [Any]).dropFirst())
        }
        #expect(removed.addresses.map(\.wrappedValue) == [stored.addresses[1].wrappedValue])
        let added = try clientEdit(stored, at: ContactAPI.middle, with: versions) {
            $0["addresses"] =
                ($0["addresses"] as! [Any]) + [["version": 1, "street": "3 New St", "city": "Ogdenville"]]
        }
        #expect(added.addresses.map(\.wrappedValue.postalCode) == ["11111", "22222", ""])
        #expect(added.addresses[2].wrappedValue.street == "3 New St")
    }

    @Test("A part both changed and moved cannot be matched to its stored part: an error")
    func partChangedAndMoved() throws {
        #expect {
            try clientEdit(stored, at: ContactAPI.middle, with: versions) {
                var addresses = $0["addresses"] as! [[String: Any]]
                addresses[0]["street"] = "9 Main St"
                $0["addresses"] = [addresses[1], addresses[0]]
            }
        } throws: { error in
            guard case .cannotMerge(_, _, let path, _) = error as? APIVersionError else { return false }
            return path == "addresses"
        }
    }

    @Test("At the newest version the edit is the value to store")
    func newestVersion() throws {
        let merged = try clientEdit(stored, at: ContactAPI.newest, with: versions) {
            $0["favorite"] = false
            $0["kind"] = "person"
        }
        var expected = stored
        expected.favorite = false
        expected.kind = .person
        #expect(merged == expected)
    }

    @Test("A stored value the client's version cannot show cannot be edited at it")
    func storedValueNotShowable() throws {
        let badges = try APIVersions([APIVersion(1).showing(Badge.self, asVersion: 1), 2], defaultVersion: 2)
        let edit = Badge(label: "gold", level: 0)
        #expect {
            try badges.merge(edit, at: 1, into: Badge(label: "silver", level: 3))
        } throws: { error in
            guard case .cannotWrite(let type, let apiVersion, _) = error as? APIVersionError else { return false }
            return type == "Badge" && apiVersion == "1" && (error as? APIVersionError)?.httpStatus == 406
        }
    }
}

@Suite("Merging random edits at every version")
struct RandomMergeTests {
    @Test("Every merge shows the client exactly its edit and keeps what the client could not see, or refuses")
    func randomEdits() throws {
        let versions = try ContactAPI.versions()
        var random = SystemRandomNumberGenerator()
        var merged = 0
        var refused = 0
        for _ in 0..<400 {
            let stored = Self.randomContact(using: &random)
            let version = [ContactAPI.oldest, ContactAPI.middle].randomElement(using: &random)!
            let shown = try versions.encode(stored, at: version)
            var object = try JSONSerialization.jsonObject(with: shown) as! [String: Any]
            Self.randomChange(&object, using: &random)
            let body = try JSONSerialization.data(withJSONObject: object)
            let edit = try versions.decode(Contact.self, from: body, at: version)
            let result: Contact
            do {
                result = try versions.merge(edit, at: version, into: stored)
            } catch let error as APIVersionError {
                guard case .cannotMerge = error else { throw error }
                refused += 1
                continue
            }
            merged += 1
            // The client sees its edit, exactly.
            let shownResult =
                try JSONSerialization.jsonObject(with: versions.encode(result, at: version)) as! NSDictionary
            let shownEdit = try JSONSerialization.jsonObject(with: versions.encode(edit, at: version)) as! NSDictionary
            #expect(shownResult == shownEdit, "\(stored) at \(version): \(shownResult) is not \(shownEdit)")
            // What neither version 1 nor 2 shows is kept.
            #expect(result.favorite == stored.favorite)
            #expect(result.nickname == stored.nickname)
            if version == ContactAPI.middle {
                #expect(result.kind == (edit.kind == .company && stored.kind == .team ? .team : edit.kind))
                // Each label the client sent unchanged keeps its color; each address its code.
                for label in result.labels where stored.labels.contains(where: { $0.text == label.text }) {
                    #expect(stored.labels.contains(label))
                }
                // Streets are unique in a stored contact: an address with a stored street is that
                // stored address, edited or not; another one is new.
                for address in result.addresses.map(\.wrappedValue) {
                    let same = stored.addresses.map(\.wrappedValue).first { $0.street == address.street }
                    #expect(address.postalCode == same?.postalCode ?? "")
                }
            } else {
                #expect(result.kind == stored.kind && result.labels == stored.labels)
                #expect(result.addresses == stored.addresses)
            }
        }
        #expect(merged > 200)
        #expect(refused > 0)
    }

    static func randomContact(using random: inout some RandomNumberGenerator) -> Contact {
        let words = ["Ann", "Bo", "Cy", "Di", "Ed"]
        let streets = ["1 Main St", "2 Side St", "3 New St", "4 Old Rd"]
        return Contact(
            firstName: Bool.random(using: &random) ? "Mary Ann" : words.randomElement(using: &random)!,
            lastName: words.randomElement(using: &random)!,
            emailAddress: "\(words.randomElement(using: &random)!)@example.com",
            phone: Bool.random(using: &random) ? "555-01\(Int.random(in: 10...99, using: &random))" : nil,
            kind: [.person, .company, .team].randomElement(using: &random)!,
            favorite: Bool.random(using: &random),
            nickname: Bool.random(using: &random) ? words.randomElement(using: &random) : nil,
            labels: words.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random)).map {
                .init(text: $0, color: Bool.random(using: &random) ? "red" : nil)
            },
            addresses: streets.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random)).map {
                Versioned(
                    Address(
                        street: $0,
                        city: "Springfield",
                        postalCode: "\(Int.random(in: 10000...99999, using: &random))"
                    )
                )
            }
        )
    }

    /// One to three changes of what the client sees: a field's value, an element added, removed,
    /// moved or edited.
    static func randomChange(_ object: inout [String: Any], using random: inout some RandomNumberGenerator) {
        // At most one change of an array's length per edit: an element removed and another
        // added at its place read as that element edited, which is the documented rule.
        var lengthChanged = false
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            let change = Int.random(in: 0..<8, using: &random)
            if [5, 7].contains(change) {
                if lengthChanged { continue }
                lengthChanged = true
            }
            switch change {
            case 0: object["phone"] = Bool.random(using: &random) ? NSNull() : "555-0177"
            case 1 where object["email"] != nil: object["email"] = "new@example.com"
            case 2 where object["name"] != nil:
                object["name"] = ["Zed Zulu", "Ann", "Mary Ann Smith"].randomElement(using: &random)!
            case 3 where object["kind"] != nil: object["kind"] = Bool.random(using: &random) ? "person" : "company"
            case 4 where object["labels"] != nil:
                var labels = object["labels"] as! [[String: Any]]
                if !labels.isEmpty, Bool.random(using: &random) {
                    labels[Int.random(in: 0..<labels.count, using: &random)]["text"] = "edited"
                } else {
                    labels.append(["text": "new"])
                }
                object["labels"] = labels
            case 5 where object["addresses"] != nil:
                var addresses = object["addresses"] as! [[String: Any]]
                if !addresses.isEmpty {
                    addresses.remove(at: Int.random(in: 0..<addresses.count, using: &random))
                }
                object["addresses"] = addresses
            case 6 where object["addresses"] != nil:
                var addresses = object["addresses"] as! [[String: Any]]
                if addresses.count > 1 {
                    addresses.swapAt(0, addresses.count - 1)
                } else if !addresses.isEmpty {
                    addresses[0]["city"] = "Capital City"
                }
                object["addresses"] = addresses
            case 7 where object["addresses"] != nil:
                var addresses = object["addresses"] as! [[String: Any]]
                addresses.append(["version": 1, "street": "5 Far Ln", "city": "Ogdenville"])
                object["addresses"] = addresses
            default:
                break
            }
        }
    }
}
