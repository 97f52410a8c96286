import Foundation
import Testing

@testable import VersionedCodable

@Suite("Checking XML property lists before Foundation reads them")
struct PropertyListInputCheckTests {
    static func plist(_ body: String) -> Data {
        Data(
            (#"<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "x">"#
                + #"<plist version="1.0">"# + body + "</plist>").utf8
        )
    }

    @Test("Comments, CDATA, declarations and self-closing elements do not count as nesting")
    func nonElementsDoNotNest() throws {
        let noise =
            String(repeating: "<!-- <array><dict> -->", count: 400) + String(repeating: "<array/><dict />", count: 400)
            + "<![CDATA[" + String(repeating: "<dict>", count: 400) + "]]>"
        try PropertyListInputCheck.check(Self.plist("<dict><key>k</key><string>v</string></dict>" + noise))
    }

    @Test(
        "Any element counts, with or without attributes and spaces",
        arguments: ["<array>", "<dict >", "<x a=\"1\">"]
    )
    func everyElementCounts(opening: String) {
        let deep = Self.plist(String(repeating: opening, count: 300))
        #expect(throws: DecodingError.self) { try PropertyListInputCheck.check(deep) }
        let shallow = Self.plist(String(repeating: opening, count: 200))
        #expect(throws: Never.self) { try PropertyListInputCheck.check(shallow) }
    }

    @Test("Bytes that are not UTF-8 are refused; binary and UTF-16 documents are left to Foundation")
    func encodings() throws {
        #expect(throws: DecodingError.self) {
            try PropertyListInputCheck.check(
                Self.plist("<string>") + Data([0xFF, 0xFE, 0xC0]) + Data("</string>".utf8)
            )
        }
        let binary = try PropertyListEncoder().encode(["version": 1])
        try PropertyListInputCheck.check(binary + Data([0xFF]))
        try PropertyListInputCheck.check(Data([0xFF, 0xFE, 0x3C, 0x00]))
    }
}
