import Foundation

/// The fixture documents bundled with the tests, one folder per type.
enum FixtureFiles {
    static func url(_ type: String, _ name: String) throws -> URL {
        guard let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        return folder.appendingPathComponent(type).appendingPathComponent(name)
    }

    static func data(_ type: String, _ name: String) throws -> Data {
        try Data(contentsOf: url(type, name))
    }

    static func names(_ type: String) throws -> [String] {
        guard let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        return try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(type).path).sorted()
    }
}

/// Compares metatypes outside `#expect`, whose expansion cannot compare them with `==`.
func isSameType(_ a: Any.Type, _ b: Any.Type) -> Bool {
    a == b
}
