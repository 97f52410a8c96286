import Foundation

/// How the report is written: for people, for programs, or as GitHub Actions annotations.
enum OutputFormat: String, CaseIterable {
    case text, json, github
}

extension CheckReport {
    /// The report in a format; `pathPrefix` goes before every file's path, so that annotations
    /// name files from the repository's root when the package is in a subfolder.
    func rendered(as format: OutputFormat, pathPrefix: String = "") -> String {
        switch format {
        case .text: text
        case .json: json(pathPrefix: pathPrefix)
        case .github: github(pathPrefix: pathPrefix)
        }
    }

    private var summary: String {
        let breaking = breaks.count
        let typeCount = types.count
        let counted = "\(filesCompared) schema files of \(typeCount) type\(typeCount == 1 ? "" : "s")"
        return breaking == 0
            ? "No breaking changes against \(ref) (\(mode.rawValue)): \(counted) compared."
            : "\(breaking) breaking change\(breaking == 1 ? "" : "s") against \(ref) (\(mode.rawValue)) in \(counted)."
    }

    private var text: String {
        var lines: [String] = []
        for type in types where !type.findings.isEmpty {
            let declared =
                type.declaredMode.map { ", \($0.rawValue) as its \(SchemaCheck.modeFileName) declares" } ?? ""
            lines.append("\(type.typeName) (\(type.folder)\(declared))")
            for finding in type.findings {
                lines.append("  \(finding.isBreaking ? "error" : "note"): \(finding.message): \(finding.file)")
                lines += finding.details.map { "    - \($0)" }
            }
        }
        lines.append(summary)
        return lines.joined(separator: "\n")
    }

    private func github(pathPrefix: String) -> String {
        var lines: [String] = []
        for type in types {
            for finding in type.findings {
                let level = finding.isBreaking ? "error" : "notice"
                let body = (["\(type.typeName) \(finding.message)"] + finding.details).joined(separator: "\n")
                lines.append(
                    "::\(level) file=\(Self.escapeProperty(pathPrefix + finding.file)),"
                        + "title=\(Self.escapeProperty("Schema check against \(ref)"))::\(Self.escapeData(body))"
                )
            }
        }
        lines.append(summary)
        return lines.joined(separator: "\n")
    }

    /// GitHub's escaping of a workflow command's message.
    private static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// GitHub's escaping of a workflow command's property, which also escapes `:` and `,`.
    private static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    private func json(pathPrefix: String) -> String {
        let document: [String: Any] = [
            "ref": ref,
            "mode": mode.rawValue,
            "breaking": !isClean,
            "filesCompared": filesCompared,
            "types": types.map { type in
                [
                    "type": type.typeName,
                    "folder": pathPrefix + type.folder,
                    "mode": (type.declaredMode ?? mode).rawValue,
                    "findings": type.findings.map { finding in
                        var entry: [String: Any] = [
                            "kind": finding.kind.rawValue,
                            "version": finding.version,
                            "file": pathPrefix + finding.file,
                            "breaking": finding.isBreaking,
                            "message": finding.message,
                            "details": finding.details,
                        ]
                        entry["previousVersion"] = finding.previousVersion
                        entry["acceptedIn"] = finding.acceptedIn
                        return entry
                    },
                ] as [String: Any]
            },
        ]
        let data =
            (try? JSONSerialization.data(
                withJSONObject: document,
                options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            )) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
