import Foundation
import VersionedCodable

extension VersionedFixtures {
    /// What each version of the chain declares, newest first.
    func declarations(in chain: VersionChain) -> [VersionCompatibilityReport.Declaration] {
        chain.types.indices.map { index in
            let readers = olderBuilds(reading: index, in: chain.types)
            return VersionCompatibilityReport.Declaration(
                version: chain.types[index].version,
                compatibility: chain.types[index].compatibility,
                writableBy: readers.filter(\.mayWrite).compactMap { $0.type.version },
                readOnlyBy: readers.filter { !$0.mayWrite }.compactMap { $0.type.version }
            )
        }
    }

    /// The older types whose builds may read documents of `types[index]`, newest first, and
    /// whether each may also write them back.
    ///
    /// This follows the rule the writer follows when it records the oldest versions that may
    /// read and write a document: a build may read while every version from its own up to the
    /// document's declares something other than `.incompatible`, and write while every one of
    /// them declares `.compatible`. A version before which the previous one has no version
    /// number ends the walk, since the writer records nothing there.
    private func olderBuilds(
        reading index: Int,
        in types: [any VersionedCodable.Type]
    ) -> [(type: any VersionedCodable.Type, mayWrite: Bool)] {
        var readers: [(type: any VersionedCodable.Type, mayWrite: Bool)] = []
        var mayWrite = true
        var current = index
        while types[current].compatibility != .incompatible, current + 1 < types.count,
            types[current + 1].version != nil, spec(of: types[current]) == spec(of: types[current + 1])
        {
            mayWrite = mayWrite && types[current].compatibility == .compatible
            readers.append((types[current + 1], mayWrite))
            current += 1
        }
        return readers
    }

    /// Checks what each version's declaration promises older builds against every sample, and
    /// returns the issues' messages.
    ///
    /// A sample that cannot be written as one of `versionsAlreadyWritten` was reported by the
    /// check of that version, and is not reported again here.
    func declarationFailures(
        in chain: VersionChain,
        samples: [Value],
        versionsAlreadyWritten: [Int?]
    ) -> [String] {
        var failures: [String] = []
        for (index, type) in chain.types.enumerated() where type.compatibility != .incompatible {
            if index + 1 < chain.types.count, chain.types[index + 1].version == nil {
                let previous = chain.types[index + 1]
                failures.append(
                    "\(Self.folderName): version \(describe(type.version)) (\(type)) declares "
                        + ".\(type.compatibility), but the version before it, \(previous), has no version "
                        + "number, so documents of version \(describe(type.version)) cannot name the older builds "
                        + "that may read them, and builds of \(previous) cannot read them. Remove the declaration."
                )
                continue
            }
            if index + 1 < chain.types.count, spec(of: type) != spec(of: chain.types[index + 1]) {
                let previous = chain.types[index + 1]
                failures.append(
                    "\(Self.folderName): version \(describe(type.version)) (\(type)) declares "
                        + ".\(type.compatibility), but keeps the version with another VersionPathSpec than the "
                        + "version before it, \(previous), so builds of \(previous) do not find it where they "
                        + "look, and documents of version \(describe(type.version)) name no older reader. "
                        + "Remove the declaration."
                )
                continue
            }
            let readers = olderBuilds(reading: index, in: chain.types)
            guard !readers.isEmpty else { continue }
            for (sampleIndex, sample) in samples.enumerated() {
                // One problem is reported once: property lists are checked where JSON passed,
                // for what only they get wrong.
                for format in [DocumentFormat.json, .propertyList] {
                    let found = checkDeclaration(
                        of: type,
                        readBy: readers,
                        sample: sample,
                        index: sampleIndex,
                        format: format,
                        reportUnwritable: !versionsAlreadyWritten.contains(type.version)
                    )
                    failures += found
                    if !found.isEmpty { break }
                }
            }
        }
        return failures
    }

    /// Writes one sample as `newer`, has each older build read it through `Versioned`, and
    /// checks what it may do with it: write it back unchanged, or only read it.
    private func checkDeclaration<Newer: VersionedCodable>(
        of newer: Newer.Type,
        readBy readers: [(type: any VersionedCodable.Type, mayWrite: Bool)],
        sample: Value,
        index: Int,
        format: DocumentFormat,
        reportUnwritable: Bool
    ) -> [String] {
        let isCurrent = Newer.self == Value.self
        let written = isCurrent ? "" : " written as version \(describe(Newer.version)) (\(Newer.self))"
        let prefix =
            "\(Self.folderName) (version \(describe(Value.version))) sample \(index)\(written)\(format.phrase)"
        let document: Data
        let expected: Newer
        do {
            document = try write(sample, as: newer, in: format)
        } catch {
            guard reportUnwritable else { return [] }
            return [
                prefix + " could not be written, so what version \(describe(Newer.version)) declares "
                    + "(.\(Newer.compatibility)) cannot be checked with it: \(error)"
            ]
        }
        do {
            // What the newer build reads from the document itself: the older build's round trip
            // must give back this, and the loss of writing the sample as an older version, if
            // any, is the business of `lossless`.
            expected = try decodeWithStoredVersion(Newer.self, from: document, in: format).wrappedValue
        } catch {
            return [
                prefix + " does not decode as \(Newer.self) itself, so what its declaration promises older "
                    + "builds cannot be checked: \(error)"
            ]
        }
        var failures: [String] = []
        for reader in readers {
            if let failure = checkRead(
                document,
                expected: expected,
                by: reader.type,
                mayWrite: reader.mayWrite,
                format: format,
                prefix: prefix
            ) {
                failures.append(failure)
            }
        }
        return failures
    }

    /// Reads a document as a build whose newest type is `older` reads it, and writes it back
    /// unedited; returns what went against the declaration, if anything.
    private func checkRead<Newer: VersionedCodable, Older: VersionedCodable>(
        _ document: Data,
        expected: Newer,
        by older: Older.Type,
        mayWrite: Bool,
        format: DocumentFormat,
        prefix: String
    ) -> String? {
        let build = "builds of version \(describe(Older.version)) (\(Older.self))"
        let promise = mayWrite ? "readable and writable by \(build)" : "readable, but not writable, by \(build)"
        let declared = prefix + " is declared " + promise
        let read: Versioned<Older>
        do {
            read = try decode(Versioned<Older>.self, from: document, in: format)
        } catch {
            if let field = unknownRawValue(in: document, format: format, error: error) {
                return declared
                    + ", but such a build cannot read its field \(field.path), which holds \(field.value): a "
                    + "value that the field's type in version \(describe(Older.version)) (\(Older.self)) does not know, "
                    + "such as an enum case that a newer version added. Declare the field as OpenEnum<…> in version "
                    + "\(describe(Older.version)), so that such a build keeps a case it does not know and writes it "
                    + "back, or declare .incompatible. Decoding throws: \(error)"
            }
            return declared + ", but such a build cannot read it through Versioned<\(Older.self)>: \(error)"
        }

        guard mayWrite else {
            do {
                _ = try encode(read, in: format)
                return declared + ", but such a build writes it back through Versioned<\(Older.self)> without "
                    + "throwing VersionedEncodingError.cannotWriteNewerDocument."
            } catch let error where Self.refusesNewerDocument(error) {
                return nil
            } catch {
                return declared + ", but writing it back through Versioned<\(Older.self)> throws \(error), "
                    + "not VersionedEncodingError.cannotWriteNewerDocument."
            }
        }

        let rewritten: Data
        do {
            rewritten = try encode(read, in: format)
        } catch {
            return declared + ", but such a build reads it through Versioned<\(Older.self)> and cannot write it "
                + "back: \(error)"
        }
        let hint =
            " An older build writes back the fields it knows as it read them, and keeps the others only at the "
            + "root of the document and of each Versioned part and in the objects where the spec keeps the "
            + "version, not inside other values: declare "
            + ".readOnlyCompatible, or add new fields where older builds keep them."
        let roundTrip =
            declared + ", but what such a build reads through Versioned<\(Older.self)> and writes back unedited"
        let back: Versioned<Newer>
        do {
            back = try decodeWithStoredVersion(Newer.self, from: rewritten, in: format)
        } catch {
            return roundTrip + " no longer decodes as \(Newer.self)." + hint + " Decoding it throws: \(error)"
        }
        if back.storedVersion != Newer.version {
            return roundTrip + " reads back as version \(describe(back.storedVersion)), not "
                + "\(describe(Newer.version))."
        }
        guard differs(back.wrappedValue, from: expected) else {
            return nil
        }
        let differences = self.differences(between: expected, and: back.wrappedValue)
        let changed =
            differences.isEmpty
            ? " reads back as \(back.wrappedValue), not as \(expected)."
            : " loses or changes " + differences.joined(separator: "; ") + "."
        return roundTrip + changed + hint
    }

    /// The field and the raw value an older build could not read, where `error` is the one the
    /// standard decoding of an enum throws for a raw value it has no case for: the data is corrupted
    /// at a field that holds a string or a number.
    private func unknownRawValue(
        in document: Data,
        format: DocumentFormat,
        error: any Error
    ) -> (path: String, value: String)? {
        guard case DecodingError.dataCorrupted(let context) = error, !context.codingPath.isEmpty,
            var value = try?
                (format == .json
                ? JSONSerialization.jsonObject(with: document, options: [.fragmentsAllowed])
                : PropertyListSerialization.propertyList(from: document, format: nil))
        else {
            return nil
        }
        var path = ""
        for key in context.codingPath {
            if let index = key.intValue, let array = value as? [Any], array.indices.contains(index) {
                value = array[index]
                path += "[\(index)]"
            } else if let object = value as? [String: Any], let field = object[key.stringValue] {
                value = field
                path += path.isEmpty ? key.stringValue : "." + key.stringValue
            } else {
                return nil
            }
        }
        switch value {
        case let text as String: return (path, "\"\(text)\"")
        case let number as NSNumber where !(value is Bool): return (path, "\(number)")
        default: return nil
        }
    }

    /// Whether an error is the refusal to write a newer document back, as the encoder throws it:
    /// `PropertyListEncoder` wraps an error from the top-level value in
    /// `EncodingError.invalidValue`, and the library's own entry points take it out, but an older
    /// build writes the `Versioned` wrapper with the encoder's plain `encode(_:)`.
    private static func refusesNewerDocument(_ error: any Error) -> Bool {
        if case VersionedEncodingError.cannotWriteNewerDocument = error {
            return true
        }
        if case EncodingError.invalidValue(_, let context) = error, context.codingPath.isEmpty,
            let underlying = context.underlyingError
        {
            return refusesNewerDocument(underlying)
        }
        return false
    }

    /// The formats the declarations are checked in, with the fixtures' coders.
    private enum DocumentFormat {
        case json
        case propertyList

        /// What messages add after the sample: nothing for JSON, the format of most checks.
        var phrase: String {
            switch self {
            case .json: ""
            case .propertyList: " in a property list"
            }
        }
    }

    /// The sample as the newer build writes it: as itself when `newer` is the current version,
    /// otherwise as that older version.
    private func write<Newer: VersionedCodable>(
        _ sample: Value,
        as newer: Newer.Type,
        in format: DocumentFormat
    ) throws -> Data {
        let isCurrent = Newer.self == Value.self
        switch format {
        case .json:
            return try isCurrent
                ? jsonEncoder.encode(versioned: sample)
                : jsonEncoder.encode(versioned: sample, asVersion: Newer.version)
        case .propertyList:
            return try isCurrent
                ? propertyListEncoder.encode(versioned: sample)
                : propertyListEncoder.encode(versioned: sample, asVersion: Newer.version)
        }
    }

    private func encode<T: Encodable>(_ value: T, in format: DocumentFormat) throws -> Data {
        switch format {
        case .json: try jsonEncoder.encode(value)
        case .propertyList: try propertyListEncoder.encode(value)
        }
    }

    private func decode<T: Decodable>(_ type: T.Type, from data: Data, in format: DocumentFormat) throws -> T {
        switch format {
        case .json: try jsonDecoder.decode(type, from: data)
        case .propertyList: try propertyListDecoder.decode(type, from: data)
        }
    }

    private func decodeWithStoredVersion<T: VersionedCodable>(
        _ type: T.Type,
        from data: Data,
        in format: DocumentFormat
    ) throws -> Versioned<T> {
        switch format {
        case .json: try jsonDecoder.decodeWithStoredVersion(type, from: data)
        case .propertyList: try propertyListDecoder.decodeWithStoredVersion(type, from: data)
        }
    }
}

/// The spec a version keeps its version with, to compare two versions' by identity.
private func spec(of type: any VersionedCodable.Type) -> ObjectIdentifier {
    func spec<T: VersionedCodable>(_: T.Type) -> ObjectIdentifier { ObjectIdentifier(T.VersionSpec.self) }
    return spec(type)
}
