import Foundation
import Testing
import VersionedCodable
import XMLCoder
import Yams

/// A number an older build keeps from a newer build's JSON document, written back by the coders
/// outside Foundation, as an older build that stores YAML or XML writes it.
@Suite("Kept numbers written by YAML and XML encoders")
struct KeptNumbersInOtherFormatsTests {
    struct GaugeV1: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var name: String
    }

    /// What the newer build's field reads back.
    struct Measured: Codable {
        var name: String
        var x: Double
    }

    /// More digits than a `Double` holds: the older build keeps it as a `Decimal`.
    static let document = Data(
        #"{"version":2,"versionReadableFrom":1,"versionWritableFrom":1,"name":"n","x":3.14159265358979323846}"#.utf8
    )

    @Test("YAMLEncoder writes it as a number with every digit, which a Double field reads")
    func yaml() throws {
        let kept = try JSONDecoder().decode(Versioned<GaugeV1>.self, from: Self.document)
        let yaml = try YAMLEncoder().encode(kept)
        #expect(yaml.contains("x: 3.14159265358979323846"))
        let back = try YAMLDecoder().decode(Measured.self, from: yaml)
        #expect(back.x == 3.141592653589793)
        #expect(back.name == "n")
    }

    @Test("XMLEncoder writes it as a number with every digit, which a Double field reads")
    func xml() throws {
        let kept = try JSONDecoder().decode(Versioned<GaugeV1>.self, from: Self.document)
        let xml = try XMLEncoder().encode(kept, withRootKey: "gauge")
        #expect(String(decoding: xml, as: UTF8.self).contains("<x>3.14159265358979323846</x>"))
        let back = try XMLDecoder().decode(Measured.self, from: xml)
        #expect(back.x == 3.141592653589793)
    }
}
