import VersionedCodable
import VersionedCodableAPI

// A contact whose history has each kind of change an API version hides: a field split in two
// (name), a rename (email), a new enum case (team), fields with defaults (favorite), a new
// optional (nickname), an array of plain values that gained a field (labels), and a
// versioned part that gained one (addresses' postal codes).

struct ContactV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier

    var name: String
    var email: String
    var phone: String?
}

struct ContactV2: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = ContactV1

    var firstName: String
    var lastName: String
    var email: String
    var phone: String?
    var kind: Kind
    var labels: [Label]
    var addresses: [Versioned<Address>]

    enum Kind: String, Codable, CaseIterable { case person, company }

    struct Label: Codable, Equatable {
        var text: String
    }

    init(
        firstName: String,
        lastName: String,
        email: String,
        phone: String?,
        kind: Kind,
        labels: [Label],
        addresses: [Versioned<Address>]
    ) {
        self.firstName = firstName
        self.lastName = lastName
        self.email = email
        self.phone = phone
        self.kind = kind
        self.labels = labels
        self.addresses = addresses
    }

    /// The name is cut at its first space.
    init(from old: ContactV1) throws {
        let parts = old.name.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        firstName = String(parts[0])
        lastName = parts.count > 1 ? String(parts[1]) : ""
        email = old.email
        phone = old.phone
        kind = .person
        labels = []
        addresses = []
    }

    func downgraded() throws -> ContactV1 {
        ContactV1(name: lastName.isEmpty ? firstName : firstName + " " + lastName, email: email, phone: phone)
    }
}

struct Contact: VersionedCodable, Equatable {
    static let version: Int? = 3
    typealias PreviousVersion = ContactV2

    var firstName: String
    var lastName: String
    var emailAddress: String
    var phone: String?
    var kind: Kind
    var favorite: Bool
    var nickname: String?
    var labels: [Label]
    var addresses: [Versioned<Address>]

    enum Kind: String, Codable, CaseIterable { case person, company, team }

    struct Label: Codable, Equatable {
        var text: String
        var color: String?
    }

    init(
        firstName: String,
        lastName: String,
        emailAddress: String,
        phone: String? = nil,
        kind: Kind = .person,
        favorite: Bool = false,
        nickname: String? = nil,
        labels: [Label] = [],
        addresses: [Versioned<Address>] = []
    ) {
        self.firstName = firstName
        self.lastName = lastName
        self.emailAddress = emailAddress
        self.phone = phone
        self.kind = kind
        self.favorite = favorite
        self.nickname = nickname
        self.labels = labels
        self.addresses = addresses
    }

    init(from old: ContactV2) throws {
        self.init(
            firstName: old.firstName,
            lastName: old.lastName,
            emailAddress: old.email,
            phone: old.phone,
            kind: old.kind == .company ? .company : .person,
            labels: old.labels.map { Label(text: $0.text) },
            addresses: old.addresses
        )
    }

    /// A team is shown to version 2 as a company.
    func downgraded() throws -> ContactV2 {
        ContactV2(
            firstName: firstName,
            lastName: lastName,
            email: emailAddress,
            phone: phone,
            kind: kind == .person ? .person : .company,
            labels: labels.map { ContactV2.Label(text: $0.text) },
            addresses: addresses
        )
    }
}

struct AddressV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier

    var street: String
    var city: String
}

struct Address: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = AddressV1

    var street: String
    var city: String
    var postalCode: String

    init(street: String, city: String, postalCode: String) {
        self.street = street
        self.city = city
        self.postalCode = postalCode
    }

    init(from old: AddressV1) throws {
        self.init(street: old.street, city: old.city, postalCode: "")
    }

    func downgraded() throws -> AddressV1 {
        AddressV1(street: street, city: city)
    }
}

/// A chain whose newest step has no downgrade: its values cannot be shown to older clients.
struct BadgeV1: VersionedCodable, Equatable {
    static let version: Int? = 1
    typealias PreviousVersion = NothingEarlier
    var label: String
}

struct Badge: VersionedCodable, Equatable {
    static let version: Int? = 2
    typealias PreviousVersion = BadgeV1
    var label: String
    var level: Int

    init(label: String, level: Int) {
        self.label = label
        self.level = level
    }

    init(from old: BadgeV1) throws {
        self.init(label: old.label, level: 0)
    }
}

enum ContactAPI {
    static let oldest = APIVersion("2025-01-01").showing(Contact.self, asVersion: 1).showing(Address.self, asVersion: 1)
    static let middle = APIVersion("2025-09-01").showing(Contact.self, asVersion: 2).showing(Address.self, asVersion: 1)
    static let newest = APIVersion("2026-06-01")

    static func versions(
        unknownFields: APIVersions.UnknownFieldPolicy = .refuse,
        versionKeyInResponses: Bool = true
    ) throws -> APIVersions {
        try APIVersions(
            [oldest, middle, newest],
            defaultVersion: "2025-09-01",
            unknownFields: unknownFields,
            versionKeyInResponses: versionKeyInResponses
        )
    }

    /// A contact with something in every field that older versions hide.
    static let stored = Contact(
        firstName: "Mary Ann",
        lastName: "Smith",
        emailAddress: "mary@example.com",
        phone: "555-0100",
        kind: .team,
        favorite: true,
        nickname: "Em",
        labels: [.init(text: "work", color: "red"), .init(text: "chess", color: "blue")],
        addresses: [
            Versioned(Address(street: "1 Main St", city: "Springfield", postalCode: "11111")),
            Versioned(Address(street: "2 Side St", city: "Shelbyville", postalCode: "22222")),
        ]
    )
}
