import Foundation
import Testing
import VersionedCodable
import VersionedCodableAPI

private func body(_ text: String) -> Data { Data(text.utf8) }

private func isCannotMerge(_ error: any Error) -> Bool {
    guard case .cannotMerge = error as? APIVersionError else { return false }
    return true
}

@Suite("Elements are never matched with another stored element")
struct MatchingHazardsTests {
    @Test("A dictionary keyed by UUIDs: each room keeps its own seats, whatever order it is written in")
    func dictionaryByKey() throws {
        let versions = try twoVersions(of: Site.self)
        for _ in 0..<40 {
            let (a, b) = (UUID(), UUID())
            let stored = Site(rooms: [a: Room(name: "Hall", seats: 10), b: Room(name: "Lobby", seats: 20)])
            let sent = try JSONEncoder().encode(
                versioned: SiteV1(rooms: [a: RoomV1(name: "Hall 2"), b: RoomV1(name: "Lobby 2")])
            )
            let merged = try versions.merge(Site.self, from: sent, at: 1, into: stored)
            #expect(merged.rooms == [a: Room(name: "Hall 2", seats: 10), b: Room(name: "Lobby 2", seats: 20)])
        }
    }

    @Test("A set whose members hide a role: renamed members are refused, an unchanged set keeps every role")
    func setWithoutIdentity() throws {
        let versions = try twoVersions(of: Crew.self)
        let stored = Crew(members: [.init(name: "ann", role: "admin"), .init(name: "bob", role: "guest")])
        for _ in 0..<20 {
            #expect(
                performing: {
                    try versions.merge(
                        Crew.self,
                        from: body(#"{"members":[{"name":"bob2"},{"name":"ann2"}]}"#),
                        at: 1,
                        into: stored
                    )
                },
                throws: isCannotMerge
            )
            let unchanged = body(#"{"members":[{"name":"bob"},{"name":"ann"}]}"#)
            #expect(try versions.merge(Crew.self, from: unchanged, at: 1, into: stored) == stored)
        }
    }

    @Test(
        "Ids the step up makes from positions are no identity: elements sent back as shown keep their own, moved or not"
    )
    func identityTheClientDoesNotSee() throws {
        let versions = try twoVersions(of: List.self)
        let stored = List(items: [
            .init(id: 0, title: "a", secret: "SA"), .init(id: 1, title: "b", secret: "SB"),
            .init(id: 2, title: "c", secret: "SC"),
        ])
        // Compared as the client saw them, not as the step up remakes them from their new places.
        let removed = try versions.merge(
            List.self,
            from: body(#"{"items":[{"title":"b"},{"title":"c"}]}"#),
            at: 1,
            into: stored
        )
        #expect(removed.items == Array(stored.items.dropFirst()))
        let reversed = try versions.merge(
            List.self,
            from: body(#"{"items":[{"title":"c"},{"title":"b"},{"title":"a"}]}"#),
            at: 1,
            into: stored
        )
        #expect(reversed.items == stored.items.reversed())
        // A removal beside a changed element, which could be any of the stored ones.
        #expect(
            performing: {
                try versions.merge(
                    List.self,
                    from: body(#"{"items":[{"title":"B"},{"title":"c"}]}"#),
                    at: 1,
                    into: stored
                )
            },
            throws: isCannotMerge
        )
        // Edited in place, each keeps its own.
        let edited = try versions.merge(
            List.self,
            from: body(#"{"items":[{"title":"a"},{"title":"B"},{"title":"c"}]}"#),
            at: 1,
            into: stored
        )
        #expect(edited.items.map(\.secret) == ["SA", "SB", "SC"] && edited.items[1].title == "B")
    }

    @Test("A cell moved to another row is refused, never stripped of its note")
    func movedBetweenLists() throws {
        let versions = try twoVersions(of: Grid.self)
        let stored = Grid(rows: [
            [.init(id: 1, value: "a", note: "N1"), .init(id: 2, value: "b", note: "N2")],
            [.init(id: 3, value: "c", note: "N3")],
        ])
        let moved = body(#"{"rows":[[{"id":1,"value":"a"}],[{"id":3,"value":"c"},{"id":2,"value":"b"}]]}"#)
        #expect(performing: { try versions.merge(Grid.self, from: moved, at: 1, into: stored) }, throws: isCannotMerge)
        let reordered = body(#"{"rows":[[{"id":2,"value":"b"},{"id":1,"value":"a"}],[{"id":3,"value":"C"}]]}"#)
        let merged = try versions.merge(Grid.self, from: reordered, at: 1, into: stored)
        #expect(merged.rows.map { $0.map(\.note) } == [["N2", "N1"], ["N3"]])
    }

    @Test("A value the step up changes is refused whether or not another field changed")
    func changedByTheSteps() throws {
        let versions = try twoVersions(of: BadgeCard.self)
        let stored = BadgeCard(title: "Ana", count: 1, color: "red")
        for sent in [#"{"title":"Ana ","count":1}"#, #"{"title":"Ana ","count":2}"#] {
            #expect(
                performing: { try versions.merge(BadgeCard.self, from: body(sent), at: 1, into: stored) },
                throws: isCannotMerge
            )
        }
        #expect(
            try versions.merge(BadgeCard.self, from: body(#"{"title":"Ana","count":2}"#), at: 1, into: stored).color
                == "red"
        )
    }

    @Test("A field that only another kind of element has is an unknown field, not dropped")
    func unknownFieldInAnotherKindOfElement() throws {
        let versions = try twoVersions(of: Page.self)
        let sent = body(
            #"{"blocks":[{"type":"text","text":"hi","url":"https://lost"},{"type":"image","url":"u"}],"meta":{}}"#
        )
        let error = try #require(throws: APIVersionError.self) { try versions.decode(Page.self, from: sent, at: 1) }
        guard case .unknownFields(let paths, _, _) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(paths == ["blocks[0].url"])
    }

    @Test("Checking 20,000 keys for unknown fields finishes, as a linear check does")
    func manyKeys() throws {
        let versions = try twoVersions(of: Page.self)
        let meta = (0..<20_000).map { #""k\#($0)":"v""# }.joined(separator: ",")
        let page = try versions.decode(Page.self, from: body(#"{"blocks":[],"meta":{"# + meta + "}}"), at: 1)
        #expect(page.meta.count == 20_000)
    }

    @Test("A JSON5 or UTF-16 body the decoder reads but the field check cannot: a 400 that says why")
    func bodiesTheCheckCannotRead() throws {
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        let versions = try APIVersions(
            [APIVersion(1).showing(BadgeCard.self, asVersion: 1), APIVersion(2)],
            defaultVersion: 1,
            decoder: decoder
        )
        let error = try #require(throws: APIVersionError.self) {
            try versions.decode(BadgeCard.self, from: body("{title: 'Ana', count: 1,}"), at: 1)
        }
        #expect(error.httpStatus == 400 && error.description.contains("JSON5"))
    }

    @Test("Under a snake-case key strategy, elements are matched by the identity the client sees")
    func identityUnderKeyStrategy() throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let versions = try APIVersions(
            [APIVersion(1).showing(Invoice.self, asVersion: 1), APIVersion(2)],
            defaultVersion: 1,
            elementIdentity: .none.identifying(elementsOf: "lineItems", by: "itemId"),
            encoder: encoder,
            decoder: decoder
        )
        let stored = Invoice(lineItems: [
            .init(itemId: 1, label: "a", costCentre: "C1"), .init(itemId: 2, label: "b", costCentre: "C2"),
        ])
        let sent = body(#"{"line_items":[{"item_id":2,"label":"B"},{"item_id":3,"label":"c"}]}"#)
        let merged = try versions.merge(Invoice.self, from: sent, at: 1, into: stored)
        #expect(
            merged.lineItems == [
                .init(itemId: 2, label: "B", costCentre: "C2"), .init(itemId: 3, label: "c", costCentre: ""),
            ]
        )
    }

    @Test("Ids the step up makes from titles: a renamed item is refused, never stripped of its secret")
    func identityFromContent() throws {
        let versions = try twoVersions(of: SlugList.self)
        let stored = SlugList(items: [
            .init(id: "x", title: "X", secret: "SX"), .init(id: "y", title: "Y", secret: "SY"),
        ])
        #expect(
            performing: {
                try versions.merge(
                    SlugList.self,
                    from: body(#"{"items":[{"title":"Z"},{"title":"Y"}]}"#),
                    at: 1,
                    into: stored
                )
            },
            throws: isCannotMerge
        )
        let swapped = try versions.merge(
            SlugList.self,
            from: body(#"{"items":[{"title":"Y"},{"title":"X"}]}"#),
            at: 1,
            into: stored
        )
        #expect(swapped.items.map(\.secret) == ["SY", "SX"])
    }

    @Test("A type with no version to read a body as is an error, not a trap")
    func emptyChain() throws {
        let versions = try twoVersions(of: BadgeCard.self)
        #expect(throws: APIVersionError.self) { try versions.decode(NothingEarlier.self, from: body("{}"), at: 1) }
    }

    @Test("An array that is a value of a dictionary with keys that are not strings is an array, not that dictionary")
    func arraysInsideKeyedDictionaries() throws {
        let versions = try twoVersions(of: Shelf.self)
        let stored = Shelf(byKind: [.a: [.init(label: "x", hidden: 0), .init(label: "y", hidden: 2)]])
        let swapped = try versions.merge(
            Shelf.self,
            from: body(#"{"byKind":["a",[{"label":"y"},{"label":"x"}]]}"#),
            at: 1,
            into: stored
        )
        #expect(swapped.byKind[.a] == [.init(label: "y", hidden: 2), .init(label: "x", hidden: 0)])
    }

    @Test("A card moved between columns kept by name, or under a column renamed, is refused as in a list of columns")
    func elementsMovedBetweenDictionaryEntries() throws {
        let versions = try twoVersions(of: Columns.self)
        let stored = Columns(columns: [
            "todo": .init(cards: [.init(id: 1, title: "one", owner: "O1"), .init(id: 2, title: "two", owner: "O2")]),
            "done": .init(cards: [.init(id: 3, title: "three", owner: "O3")]),
        ])
        for sent in [
            #"{"columns":{"todo":{"cards":[{"id":2,"title":"two"}]},"done":{"cards":[{"id":3,"title":"three"},{"id":1,"title":"one"}]}}}"#,
            #"{"columns":{"doing":{"cards":[{"id":1,"title":"one"},{"id":2,"title":"two"}]},"done":{"cards":[{"id":3,"title":"three"}]}}}"#,
        ] {
            #expect(
                performing: { try versions.merge(Columns.self, from: body(sent), at: 1, into: stored) },
                throws: isCannotMerge
            )
        }
        // Within its own column a card keeps its owner, moved or edited.
        let edited = try versions.merge(
            Columns.self,
            from: body(
                #"{"columns":{"todo":{"cards":[{"id":2,"title":"two"},{"id":1,"title":"ONE"}]},"done":{"cards":[{"id":3,"title":"three"}]}}}"#
            ),
            at: 1,
            into: stored
        )
        #expect(edited.columns["todo"]?.cards.map(\.owner) == ["O2", "O1"])
        #expect(edited.columns["todo"]?.cards.last?.title == "ONE")
    }

    @Test("An id made from places is no identity where another value shown happens to equal it")
    func placeIdsBesideCoincidingValues() throws {
        let versions = try twoVersions(of: Slots.self)
        let stored = Slots(slots: [
            .init(id: 0, label: "x", quantity: 1, secret: "S0"), .init(id: 1, label: "y", quantity: 0, secret: "S1"),
        ])
        let swapped = try versions.merge(
            Slots.self,
            from: body(#"{"slots":[{"label":"y","quantity":0},{"label":"x","quantity":1}]}"#),
            at: 1,
            into: stored
        )
        #expect(swapped.slots == stored.slots.reversed())
    }

    @Test("A set's elements are matched by the identity the client sees, whatever order its view lists them in")
    func setMatchedByIdentity() throws {
        let versions = try twoVersions(of: Roster.self)
        let stored = Roster(members: [
            .init(id: 1, name: "a", role: "R1"), .init(id: 2, name: "b", role: "R2"),
            .init(id: 3, name: "c", role: "R3"),
        ])
        let merged = try versions.merge(
            Roster.self,
            from: body(#"{"members":[{"id":4,"name":"d"},{"id":1,"name":"A"},{"id":2,"name":"b"}]}"#),
            at: 1,
            into: stored
        )
        #expect(
            merged.members == [
                .init(id: 4, name: "d", role: ""), .init(id: 1, name: "A", role: "R1"),
                .init(id: 2, name: "b", role: "R2"),
            ]
        )
    }
}
