import VersionedCodable

/// What a compatibility check found, beyond the issues it records: which versions it wrote,
/// what writing a sample as a version that may lose data did lose, and what each version's
/// `compatibility` declaration promises older builds.
///
/// <!-- snippet: compatibility-report -->
/// ```swift
/// let report = VersionedFixtures(EstimatedTicket.self, bundle: .module)
///     .checkCompatibility(.fullTransitive, samples: [.sample])
/// #expect(report.checkedVersions == [2, 1])
/// #expect(report.losses.map { $0.differences } == [["estimate: 3 → absent"], ["estimate: 3 → absent"]])
/// ```
public struct VersionCompatibilityReport: Sendable, CustomStringConvertible {
    /// What a sample lost on its way through an older version that is not declared lossless.
    public struct Loss: Sendable, Hashable, CustomStringConvertible {
        /// The older version the sample was written as.
        public let version: Int?

        /// The sample's position in the list the check was given.
        public let sampleIndex: Int

        /// Each field that came back different, as `path: before → after` with JSON values.
        public let differences: [String]

        /// `version 1, sample 0: tags: ["a"] → []`.
        public var description: String {
            "version \(describe(version)), sample \(sampleIndex): " + differences.joined(separator: "; ")
        }
    }

    /// What a version's `compatibility` declaration promises builds that know only older
    /// versions, following the declarations down the chain as the writer does when it records
    /// them in a document.
    ///
    /// A declaration is the type's own, a `ForwardCompatibility` of the VersionedCodable
    /// library; it is not the mode of the check, a ``VersionCompatibility``. The oldest version
    /// promises nothing, whatever it declares. Nor does a version whose previous version has no
    /// version number, since its documents cannot say which older builds may read them: the
    /// check records an issue for such a declaration.
    ///
    /// Version 3 of a shelf only adds a colour to version 2, which changed what the name means
    /// and so lets builds of version 1 only read it: builds of version 2 may write version 3's
    /// documents, and builds of version 1 may read the documents of both but write neither.
    ///
    /// <!-- snippet: declaration-report -->
    /// ```swift
    /// let report = VersionedFixtures(ColouredShelf.self, bundle: .module)
    ///     .checkCompatibility(.full, samples: [.sample])
    /// #expect(report.declarations.map(\.version) == [3, 2, 1])
    /// #expect(report.declarations.map(\.writableBy) == [[2], [], []])
    /// #expect(report.declarations.map(\.readOnlyBy) == [[1], [1], []])
    /// ```
    public struct Declaration: Sendable, Hashable, CustomStringConvertible {
        /// The version that declares.
        public let version: Int?

        /// What the version declares relative to its previous version.
        public let compatibility: ForwardCompatibility

        /// The older versions whose builds may read documents of this version and write them
        /// back, newest first; empty when none may.
        public let writableBy: [Int]

        /// The older versions whose builds may read documents of this version but must not
        /// write them back, newest first.
        public let readOnlyBy: [Int]

        /// Whether any older build may read documents of this version.
        public var promisesOlderBuilds: Bool { !writableBy.isEmpty || !readOnlyBy.isEmpty }

        /// `version 3 (compatible): builds of version 2 may read and write its documents`.
        public var description: String {
            var promises: [String] = []
            if !writableBy.isEmpty {
                promises.append("builds of \(Self.list(writableBy)) may read and write its documents")
            }
            if !readOnlyBy.isEmpty {
                let documents = promises.isEmpty ? "its documents" : "them"
                promises.append("builds of \(Self.list(readOnlyBy)) may read \(documents) but not write them back")
            }
            if promises.isEmpty {
                promises.append("no older build may read its documents")
            }
            return "version \(describe(version)) (\(compatibility)): " + promises.joined(separator: "; ")
        }

        /// `version 2`, `versions 3 and 2`, `versions 4, 3 and 2`.
        private static func list(_ versions: [Int]) -> String {
            let names = versions.map(String.init)
            guard let last = names.last, names.count > 1 else {
                return "version " + names.joined()
            }
            return "versions " + names.dropLast().joined(separator: ", ") + " and " + last
        }
    }

    /// The older versions the check wrote the samples as, newest first.
    public internal(set) var checkedVersions: [Int?] = []

    /// What the samples lost through versions that are not declared lossless; empty when they
    /// came back equal.
    public internal(set) var losses: [Loss] = []

    /// What each version of the chain declares and promises older builds, newest first: every
    /// version, including those that declare nothing. The check reads each sample as the
    /// older builds a declaration names, and records an issue where the promise fails.
    public internal(set) var declarations: [Declaration] = []

    /// How many test issues the check recorded.
    public internal(set) var issueCount = 0

    /// Whether the check recorded no issue.
    public var passed: Bool { issueCount == 0 }

    /// One line per loss, or that nothing was lost, then one line per declaration that
    /// promises older builds anything.
    public var description: String {
        let versions = checkedVersions.map(describe).joined(separator: ", ")
        var text =
            losses.isEmpty
            ? "Checked versions \(versions): nothing lost."
            : "Checked versions \(versions); lost:\n" + losses.map(\.description).joined(separator: "\n")
        let promises = declarations.filter(\.promisesOlderBuilds)
        if !promises.isEmpty {
            text += "\nDeclared:\n" + promises.map(\.description).joined(separator: "\n")
        }
        return text
    }
}
