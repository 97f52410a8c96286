import Foundation
import Testing
import VersionedCodable
import VersionedCodableAPI

@Suite("Bodies a client should not send: a clear 4xx, and nothing stored changes")
struct BadBodiesTests {
    let versions: APIVersions

    init() throws {
        versions = try BoardAPI.versions()
    }

    private func status(of body: Data) -> Int? {
        do {
            _ = try versions.merge(Board.self, from: body, at: BoardAPI.first, into: BoardAPI.stored)
            return nil
        } catch let error as APIVersionError {
            return error.httpStatus
        } catch {
            return 0
        }
    }

    @Test("A body nested 100,000 arrays deep is a 400")
    func deepNesting() {
        let depth = 100_000
        let body = Data(
            (#"{"title":"Week","notes":[],"tags":"","tasks":"# + String(repeating: "[", count: depth)
                + String(repeating: "]", count: depth) + "}").utf8
        )
        #expect(status(of: body) == 400)
    }

    @Test("100,000 tasks with a field version 1 does not have: a 400 naming the first ten")
    func largeArrayWithUnknownFields() throws {
        let tasks = (0..<100_000).map { #"{"id":\#($0),"title":"t","assignee":"x"}"# }.joined(separator: ",")
        let body = Data((#"{"title":"Week","notes":[],"tags":"","tasks":["# + tasks + "]}").utf8)
        let error = try #require(throws: APIVersionError.self) {
            try versions.merge(Board.self, from: body, at: BoardAPI.first, into: BoardAPI.stored)
        }
        #expect(error.httpStatus == 400)
        #expect(error.description.contains("tasks[0].assignee") && error.description.contains("and 99990 more"))
        #expect(error.description.count < 600)
    }

    @Test("Duplicate ids, null and malformed elements: a 4xx each")
    func badElements() {
        let bodies = [
            #"[{"id":9,"title":"A"},{"id":9,"title":"B"}]"#,
            "[null]",
            #"[{"id":"nine","title":"A"}]"#,
            #"[{"id":9.5,"title":"A"}]"#,
            #"[{"id":null,"title":"A"}]"#,
            "{}",
        ]
        for tasks in bodies {
            let body = Data((#"{"title":"Week","notes":[],"tags":"","tasks":"# + tasks + "}").utf8)
            let status = status(of: body)
            #expect(status.map { (400..<500).contains($0) } == true, "\(tasks): \(String(describing: status))")
        }
    }
}
