import Foundation
import Testing
import VersionedCodable

@Suite("MigratedDecodingFailure")
struct MigratedDecodingFailureTests {
    struct Unreadable: Error, CustomStringConvertible {
        var description: String { "the disk is unreadable" }
    }

    @Test("the description names both shapes and both reasons")
    func description() throws {
        let error = try #require(throws: DecodingError.self) {
            try JSONDecoder().decode(
                Houseplant.self,
                from: Data(#"{"name": "Ivy", "watering": "weekly"}"#.utf8)
            )
        }
        guard case .dataCorrupted(let context) = error,
            let failure = context.underlyingError as? MigratedDecodingFailure
        else {
            Issue.record("expected a dataCorrupted error with a MigratedDecodingFailure, got \(error)")
            return
        }
        let text = failure.description
        #expect(text.contains("As WateringSchedule:"))
        #expect(text.contains("As Int (the old shape):"))
        // Each reason is the decoding error's own sentence, not a dump of the enum.
        #expect(!text.contains("Context("))
        #expect(text.contains("watering"))
        #expect(failure.errorDescription == text)
        #expect(context.debugDescription == text)
    }

    @Test("the documentation's sample reaches both reasons through the decoding error")
    func documentedSample() throws {
        let data = Data(#"{"name": "Ivy", "watering": "weekly"}"#.utf8)
        var problems: [String] = []
        // snippet: migrated-decoding-failure
        do {
            _ = try JSONDecoder().decode(Houseplant.self, from: data)
        } catch DecodingError.dataCorrupted(let context) {
            if let failure = context.underlyingError as? MigratedDecodingFailure {
                problems.append("now: \(failure.currentShapeError); before: \(failure.oldShapeError)")
            }
        }
        // end snippet
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("now: ") == true)
    }

    @Test("errors that are not decoding errors are described as themselves")
    func otherErrors() {
        let failure = MigratedDecodingFailure(
            currentShape: "Schedule",
            oldShape: "Int",
            currentShapeError: Unreadable(),
            oldShapeError: DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "Not a number.")
            )
        )
        #expect(
            failure.description
                == "The value matches neither its current shape nor its old one. "
                + "As Schedule: the disk is unreadable. As Int (the old shape): Not a number."
        )
    }
}
