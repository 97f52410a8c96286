import Foundation
import Testing

@testable import VersionedCodable

/// The check must measure nesting exactly where Foundation's XML reader does: a comment,
/// processing instruction, CDATA section or `DOCTYPE` that the check ended earlier or later than
/// Foundation would let nesting past it, or refuse a document for text that Foundation skips.
/// Each document is tried in every encoding Foundation reads XML in.
@Suite("Checking XML property lists before Foundation reads them")
struct PropertyListInputCheckTests {
    /// A versioned type to decode flat documents into, through the checked entry point.
    struct Shelf: VersionedCodable, Equatable {
        static let version: Int? = 1
        typealias PreviousVersion = NothingEarlier
        var books: [String]
    }

    /// The encodings Foundation reads an XML property list in: UTF-8, with or without a byte order
    /// mark, and UTF-16 and UTF-32 after one.
    enum TextEncoding: String, CaseIterable, CustomTestStringConvertible {
        case utf8
        case utf8WithByteOrderMark
        case utf16LittleEndian
        case utf16BigEndian
        case utf32BigEndian
        /// FE FF 00 00, which is UTF-16BE's mark and a zero character, but which Foundation takes
        /// for UTF-32LE's.
        case utf32LittleEndianAsFoundationReadsIt

        var testDescription: String { rawValue }

        /// `text` in this encoding, after its byte order mark.
        func encode(_ text: String) -> Data {
            switch self {
            case .utf8: Data(text.utf8)
            case .utf8WithByteOrderMark: Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8)
            case .utf16LittleEndian: Data([0xFF, 0xFE]) + text.data(using: .utf16LittleEndian)!
            case .utf16BigEndian: Data([0xFE, 0xFF]) + text.data(using: .utf16BigEndian)!
            case .utf32BigEndian: Data([0x00, 0x00, 0xFE, 0xFF]) + text.data(using: .utf32BigEndian)!
            case .utf32LittleEndianAsFoundationReadsIt:
                Data([0xFE, 0xFF, 0x00, 0x00]) + text.data(using: .utf32LittleEndian)!
            }
        }
    }

    /// An XML property list in UTF-8 around `body`, as Foundation writes them.
    static func plist(_ body: String) -> Data {
        Data(plistText(body).utf8)
    }

    /// The text of `plist(_:)`, for encoding in other ways.
    static func plistText(_ body: String) -> String {
        #"<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "x">"#
            + #"<plist version="1.0">"# + body + "</plist>"
    }

    /// A shelf of more books than the nesting limit allows levels: more elements than the nesting limit, all side by side.
    static let flatShelf =
        #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>version</key><integer>1</integer>"#
        + "<key>books</key><array>" + String(repeating: "<string>b</string>", count: Self.overLimit)
        + "</array></dict></plist>"

    /// Nesting past the check's limit.
    static let overLimit = PropertyListInputCheck.maximumNesting + 52

    /// `depth` arrays, each inside the one before.
    static func nested(_ depth: Int) -> String {
        String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)
    }

    /// A property list value, decoded for how deeply its arrays nest, to see what Foundation read.
    struct ArrayDepth: Decodable {
        var depth: Int

        init(from decoder: any Decoder) throws {
            let elements = try? decoder.singleValueContainer().decode([ArrayDepth].self)
            depth = elements.map { 1 + ($0.map(\.depth).max() ?? 0) } ?? 0
        }
    }

    /// Why the check refuses `data`, or `nil` when it lets Foundation read it.
    static func refusal(_ data: Data) -> String? {
        do {
            try PropertyListInputCheck.check(data)
            return nil
        } catch DecodingError.dataCorrupted(let context) {
            return context.debugDescription
        } catch {
            return "\(type(of: error)): \(error)"
        }
    }

    /// Whether the check refuses `data` for its nesting, rather than for anything else.
    static func refusesForNesting(_ data: Data) -> Bool {
        refusal(data)?.contains("nests arrays and dictionaries more than \(PropertyListInputCheck.maximumNesting) deep")
            == true
    }

    // MARK: - What does not nest

    @Test(
        "Comments, CDATA, declarations and self-closing elements do not count as nesting",
        arguments: TextEncoding.allCases
    )
    func nonElementsDoNotNest(encoding: TextEncoding) throws {
        let noise =
            String(repeating: "<!-- <array><dict> -->", count: Self.overLimit)
            + String(repeating: "<array/><dict />", count: Self.overLimit)
            + "<![CDATA[" + String(repeating: "<dict>", count: Self.overLimit) + "]]>"
        #expect(
            Self.refusal(encoding.encode(Self.plistText("<dict><key>k</key><string>v</string></dict>" + noise))) == nil
        )
    }

    @Test(
        "A comment ends at the first --> after its <!--, so <!--> hides what follows it",
        arguments: TextEncoding.allCases
    )
    func commentEndsAfterItsOpening(encoding: TextEncoding) throws {
        // Foundation reads `<!-->` as the start of a comment that the later `-->` ends: the
        // arrays inside are no nesting, and it decodes the document.
        let hiding = Self.plistText(
            "<array><!--> " + String(repeating: "<array>", count: Self.overLimit) + " --></array>"
        )
        #expect(Self.refusal(encoding.encode(hiding)) == nil)
        #expect(throws: Never.self) { try PropertyListDecoder().decode([String].self, from: encoding.encode(hiding)) }
        // A check that ended the comment at `<!-->` would then skip the CDATA section, whose `]]>`
        // comes after nesting that Foundation reads.
        let smuggling = Self.plistText("<!--><![CDATA[-->" + Self.nested(Self.overLimit) + "<!-- ]]> -->")
        #expect(Self.refusesForNesting(encoding.encode(smuggling)))
    }

    @Test(
        "CDATA sections inside strings and keys do not count, and end at their ]]>",
        arguments: TextEncoding.allCases
    )
    func cdataInsideStrings(encoding: TextEncoding) throws {
        let inside = String(repeating: "<array><!--", count: Self.overLimit)
        let document = Self.plistText(
            "<dict><key><![CDATA[" + inside + "]]></key><string>a<![CDATA[" + inside + "]]>b</string></dict>"
        )
        #expect(Self.refusal(encoding.encode(document)) == nil)
        let decoded = try PropertyListDecoder().decode([String: String].self, from: encoding.encode(document))
        #expect(decoded == [inside: "a" + inside + "b"])
        // What follows the section's end is measured again.
        let after = Self.plistText("<array><string><![CDATA[-->]]></string>" + Self.nested(Self.overLimit) + "</array>")
        #expect(Self.refusesForNesting(encoding.encode(after)))
    }

    @Test(
        "An unterminated comment, CDATA section or processing instruction hides nothing before it",
        arguments: TextEncoding.allCases
    )
    func unterminatedSections(encoding: TextEncoding) {
        for opening in ["<!--", "<![CDATA[", "<?pi", "<!DOCTYPE x ["] {
            let deepFirst = Self.plistText(String(repeating: "<array>", count: Self.overLimit) + opening)
            #expect(Self.refusesForNesting(encoding.encode(deepFirst)), "\(opening)")
            // Running to the end, the section holds everything after it: Foundation refuses it.
            let deepInside = Self.plistText(opening + String(repeating: "<array>", count: Self.overLimit))
            #expect(!Self.refusesForNesting(encoding.encode(deepInside)), "\(opening)")
            #expect(throws: DecodingError.self) {
                try PropertyListDecoder().decode([String].self, from: encoding.encode(deepInside))
            }
        }
    }

    // MARK: - Processing instructions, DOCTYPE and attributes

    @Test(
        "A processing instruction ends at ?>, not at a > inside it",
        arguments: TextEncoding.allCases
    )
    func processingInstructionEndsAtQuestionMark(encoding: TextEncoding) throws {
        // A check that ended it at `pi >` would read the `<!--` inside it as a comment that runs
        // to the last line and hides the nesting that Foundation reads.
        let smuggling = "<?pi > <!-- ?><plist>" + Self.nested(Self.overLimit) + "</plist><!-- -->"
        #expect(Self.refusesForNesting(encoding.encode(smuggling)))
        let harmless = "<?pi > <array><array> ?>" + Self.flatShelf
        #expect(Self.refusal(encoding.encode(harmless)) == nil)
        #expect(
            try PropertyListDecoder().decode(versioned: Shelf.self, from: encoding.encode(harmless)).books.count
                == Self.overLimit
        )
    }

    @Test(
        "<?> is a whole processing instruction inside an element but not before the root, as Foundation reads it",
        arguments: TextEncoding.allCases
    )
    func emptyProcessingInstruction(encoding: TextEncoding) throws {
        // Before the root, Foundation looks for `?>` after the `<?`, so this one ends at `?>`.
        let beforeRoot = "<?> <!-- ?><plist>" + Self.nested(Self.overLimit) + "</plist><!-- -->"
        #expect(Self.refusesForNesting(encoding.encode(beforeRoot)))
        // Inside an element, Foundation looks from the `?` on, so `<?>` ends where it starts.
        let inside =
            "<plist><array><?><!-- ?>" + String(repeating: "<array>", count: Self.overLimit) + "--></array></plist>"
        #expect(Self.refusal(encoding.encode(inside)) == nil)
        #expect(try PropertyListDecoder().decode([String].self, from: encoding.encode(inside)) == [])
    }

    @Test(
        "A DOCTYPE ends at its first >, even inside quotes, as Foundation reads it",
        arguments: TextEncoding.allCases
    )
    func doctypeEndsAtFirstAngleBracket(encoding: TextEncoding) throws {
        // Foundation ends this DOCTYPE inside the quotes and reads the plist that follows; a
        // check that honoured the quotes would skip it.
        let smuggling = #"<!DOCTYPE plist SYSTEM "a> <plist>"# + Self.nested(Self.overLimit) + #"</plist>">"#
        #expect(Self.refusesForNesting(encoding.encode(smuggling)))
        let shallow = #"<!DOCTYPE plist SYSTEM "a> <plist>"# + Self.nested(100) + #"</plist>">"#
        #expect(Self.refusal(encoding.encode(shallow)) == nil)
        #expect(try PropertyListDecoder().decode(ArrayDepth.self, from: encoding.encode(shallow)).depth == 100)
    }

    @Test(
        "A DOCTYPE's internal subset is skipped with the > and ]> in its declarations, and what follows is measured",
        arguments: TextEncoding.allCases
    )
    func doctypeWithInternalSubset(encoding: TextEncoding) {
        let subset = #"<!DOCTYPE plist [ <!ENTITY a "]>"> <!-- ]> --> <?pi ]> ?> <!ELEMENT plist ANY> ]>"#
        let shallow = subset + "<plist>" + Self.nested(250) + "</plist>"
        #expect(Self.refusal(encoding.encode(shallow)) == nil)
        let deep = subset + "<plist>" + Self.nested(Self.overLimit) + "</plist>"
        #expect(Self.refusesForNesting(encoding.encode(deep)))
        // Foundation refuses an internal subset outright, but never crashes on it.
        #expect(throws: DecodingError.self) {
            try PropertyListDecoder().decode([String].self, from: encoding.encode(shallow))
        }
    }

    @Test(
        "A tag ends at its first >, inside an attribute value or not, as Foundation reads no attributes",
        arguments: TextEncoding.allCases
    )
    func attributeValuesWithAngleBrackets(encoding: TextEncoding) {
        // `<array a=">">` is an open array to Foundation, followed by the text `">`.
        let opening = Self.plistText(String(repeating: #"<array a=">">"#, count: Self.overLimit))
        #expect(Self.refusesForNesting(encoding.encode(opening)))
        // `<array a="/>">` is an empty array to Foundation, whose `/` comes right before a `>`.
        let empty = Self.plistText(
            "<array>" + String(repeating: #"<array a="/>">"#, count: Self.overLimit) + "</array>"
        )
        #expect(!Self.refusesForNesting(encoding.encode(empty)))
        #expect(throws: DecodingError.self) {
            try PropertyListDecoder().decode([String].self, from: encoding.encode(empty))
        }
        // `<array a="<!--">` opens an array: the `<!--` is inside its tag.
        let commentInTag = Self.plistText(String(repeating: #"<array a="<!--">"#, count: Self.overLimit) + "-->")
        #expect(Self.refusesForNesting(encoding.encode(commentInTag)))
    }

    @Test(
        "Any element counts, with or without attributes and spaces",
        arguments: ["<array>", "<dict >", "<x a=\"1\">", "<array\t>", "<plist>"]
    )
    func everyElementCounts(opening: String) {
        for encoding in TextEncoding.allCases {
            #expect(
                Self.refusesForNesting(
                    encoding.encode(Self.plistText(String(repeating: opening, count: Self.overLimit)))
                )
            )
            #expect(Self.refusal(encoding.encode(Self.plistText(String(repeating: opening, count: 200)))) == nil)
        }
    }

    @Test("What follows the root element is not measured, as Foundation reads no further")
    func contentAfterTheRoot() throws {
        for encoding in TextEncoding.allCases {
            let document = Self.flatShelf + String(repeating: "<array>", count: Self.overLimit)
            #expect(Self.refusal(encoding.encode(document)) == nil, "\(encoding)")
            #expect(
                try PropertyListDecoder().decode(versioned: Shelf.self, from: encoding.encode(document)).books.count
                    == Self.overLimit
            )
        }
    }

    // MARK: - Encodings

    @Test(
        "A flat document decodes in every encoding Foundation reads, however many elements it has",
        arguments: TextEncoding.allCases
    )
    func flatDocumentsDecode(encoding: TextEncoding) throws {
        let data = encoding.encode(Self.flatShelf)
        #expect(Self.refusal(data) == nil)
        #expect(try PropertyListDecoder().decode(versioned: Shelf.self, from: data).books.count == Self.overLimit)
    }

    @Test("Deep nesting is refused in every encoding Foundation reads", arguments: TextEncoding.allCases)
    func deepNestingInEveryEncoding(encoding: TextEncoding) {
        #expect(Self.refusesForNesting(encoding.encode(Self.plistText(Self.nested(Self.overLimit)))))
        #expect(Self.refusal(encoding.encode(Self.plistText(Self.nested(250)))) == nil)
    }

    /// Foundation reads UTF-16 and UTF-32 without a byte order mark as UTF-8 and refuses them at
    /// their first zero byte; the check names the encoding instead of counting `<` as elements.
    @Test("UTF-16 and UTF-32 without a byte order mark are refused for what they are, flat or deep")
    func utf16WithoutByteOrderMark() throws {
        let encodings: [String.Encoding] = [.utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian, .utf32BigEndian]
        for encoding in encodings {
            for text in [Self.flatShelf, Self.plistText(Self.nested(Self.overLimit)), "  " + Self.flatShelf] {
                let data = try #require(text.data(using: encoding))
                let refusal = try #require(Self.refusal(data), "\(encoding)")
                #expect(refusal.contains("zero byte"), "\(encoding): \(refusal)")
                #expect(!refusal.contains("deep"), "\(encoding): \(refusal)")
                // Foundation could not read it either.
                #expect(throws: DecodingError.self) { try PropertyListDecoder().decode(Shelf.self, from: data) }
            }
        }
    }

    @Test("UTF-16 and UTF-32 that do not hold what their byte order mark announces are refused by name")
    func invalidUTF16() throws {
        let cases: [(Data, String)] = [
            (
                Data([0xFF, 0xFE]) + "<plist><string>".data(using: .utf16LittleEndian)! + Data([0x00, 0xD8]), "UTF-16LE"
            ),
            (Data([0xFE, 0xFF]) + "<plist><string>".data(using: .utf16BigEndian)! + Data([0xDC, 0x00]), "UTF-16BE"),
            (Data([0x00, 0x00, 0xFE, 0xFF, 0x00, 0x11, 0x00, 0x00]), "UTF-32BE"),
        ]
        for (data, name) in cases {
            #expect(
                Self.refusal(data)
                    == "The property list is not valid \(name), the encoding its byte order mark announces."
            )
            #expect(throws: DecodingError.self) { try PropertyListDecoder().decode(Shelf.self, from: data) }
        }
    }

    @Test("UTF-8 is validated exactly when Foundation reads the document as UTF-8")
    func utf8IsValidatedWhenFoundationReadsUTF8() {
        let invalid = Data(repeating: 0xFF, count: 8)
        for prefix in [Data(), Data([0xEF, 0xBB, 0xBF]), Data("  ".utf8)] {
            let document = prefix + Self.plist("<string>") + invalid + Data("</string>".utf8)
            #expect(Self.refusal(document) == "The XML property list is not valid UTF-8.")
        }
        // Inside a comment too, which the scan skips but still validates.
        #expect(Self.refusal(Self.plist("<!--") + invalid + Data("--><true/>".utf8)) != nil)
        // `utf-8` in any case is UTF-8 to Foundation.
        let declaredUTF8 =
            Data(#"<?xml version="1.0" encoding="Utf-8"?><plist><string>"#.utf8) + invalid
            + Data("</string></plist>".utf8)
        #expect(Self.refusal(declaredUTF8) == "The XML property list is not valid UTF-8.")
        // Another declared encoding is measured, and left to Foundation, which refuses it on
        // Linux before scanning and converts it to UTF-8 on Apple platforms.
        let latin1 =
            Data(#"<?xml version="1.0" encoding="ISO-8859-1"?><plist><string>"#.utf8) + Data([0xE9])
            + Data("</string></plist>".utf8)
        #expect(Self.refusal(latin1) == nil)
        #expect(throws: DecodingError.self) { try PropertyListDecoder().decode(String.self, from: latin1) }
        let deep = Data(
            (#"<?xml version="1.0" encoding='latin1'?><plist>"# + Self.nested(Self.overLimit) + "</plist>").utf8
        )
        #expect(Self.refusesForNesting(deep))
    }

    @Test("Binary and OpenStep property lists are left to Foundation, which reads them safely")
    func otherFormats() throws {
        let binary = try PropertyListEncoder().encode(["version": 1])
        #expect(Self.refusal(binary + Data([0xFF])) == nil)
        // OpenStep data values look like elements, and its own nesting limit protects it.
        let openStep = Data(("(" + String(repeating: "<ab>, ", count: Self.overLimit) + ")").utf8)
        #expect(Self.refusal(openStep) == nil)
        let deepOpenStep = Data((String(repeating: "(", count: 100_000) + String(repeating: ")", count: 100_000)).utf8)
        #expect(Self.refusal(deepOpenStep) == nil)
        #expect(throws: DecodingError.self) { try PropertyListDecoder().decode([String].self, from: deepOpenStep) }
    }
}
