import Foundation
import Testing
import VersionedCodable

struct SPoemV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var author: String
    var poem: [String]
}
struct SPoem: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = SPoemV1
    var author: String
    var poem: String
    init(author: String, poem: String) { self.author = author; self.poem = poem }
    init(from old: SPoemV1) throws { author = old.author; poem = old.poem.joined(separator: "\n") }
}
struct MetaSpec: VersionPathSpec {
    nonisolated(unsafe) static let keyPathToVersion: KeyPath<Self, Int?> = \Self._metadata.version
    init(withVersion version: Int?) { _metadata = .init(version: version) }
    struct M: Codable { var version: Int? }
    var _metadata: M
}
struct Meta: VersionedCodable, Equatable {
    static let version: Int? = 3
    typealias PreviousVersion = NothingEarlier
    typealias VersionSpec = MetaSpec
    struct M: Codable, Equatable { var editor: String }
    var _metadata: M
    var text: String
}
@Test func smoke() throws {
    let d = try JSONDecoder().decode(versioned: SPoem.self, from: Data(#"{"version":1,"author":"a","poem":["x","y"]}"#.utf8))
    #expect(d == SPoem(author: "a", poem: "x\ny"))
    let e = try JSONEncoder().encode(versioned: d)
    print(String(decoding: e, as: UTF8.self))
    let m = Meta(_metadata: .init(editor: "ed"), text: "t")
    let me = try JSONEncoder().encode(versioned: m)
    print(String(decoding: me, as: UTF8.self))
    #expect(try JSONDecoder().decode(versioned: Meta.self, from: me) == m)
    let pe = try PropertyListEncoder().encode(versioned: m)
    #expect(try PropertyListDecoder().decode(versioned: Meta.self, from: pe) == m)
}
