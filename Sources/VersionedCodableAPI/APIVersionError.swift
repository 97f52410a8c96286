/// Why a request could not be read, a response written or an edit merged at an API version.
///
/// Each case says what was wrong in words a client can act on; ``httpStatus`` is the status a
/// service answers with, and the description the body.
public enum APIVersionError: Error, CustomStringConvertible {
    /// The list of API versions is not one a service can serve; the message says why.
    case invalidDeclaration(String)

    /// The request names an API version the service does not serve.
    case unknownVersion(String, served: [String])

    /// The request's API version is not written as the service names its versions (a word
    /// where they are numbers, or not a `YYYY-MM-DD` date where they are dates).
    case malformedVersion(String, served: [String])

    /// The body carries a version of its type other than the one its API version shows.
    case bodyVersionMismatch(type: String, apiVersion: String, expected: Int?, found: Int?)

    /// The body does not decode as the version its API version shows; `underlying` is the
    /// decoder's error.
    case undecodableBody(type: String, apiVersion: String, underlying: any Error)

    /// The body has fields that the version its API version shows does not have, and the
    /// service refuses them (``APIVersions/UnknownFieldPolicy/refuse``).
    case unknownFields([String], type: String, apiVersion: String)

    /// The value cannot be written as the version the API version shows: a step down the chain
    /// has no `downgraded()` or cannot represent the value; `underlying` says which.
    case cannotWrite(type: String, apiVersion: String, underlying: any Error)

    /// A client's edit cannot be merged into the stored value without guessing: at `path`, the
    /// stored value holds what the API version does not show, and the edit changes it in a way
    /// that cannot be told apart from it.
    case cannotMerge(type: String, apiVersion: String, path: String, reason: String)

    /// The HTTP status a service answers with: 400 for a request at a version it does not serve
    /// or a body that is not of its version, 406 for a value the client's version cannot show,
    /// 409 for an edit that cannot be merged, 500 for a declaration error.
    public var httpStatus: Int {
        switch self {
        case .invalidDeclaration: 500
        case .unknownVersion, .malformedVersion, .bodyVersionMismatch, .undecodableBody, .unknownFields: 400
        case .cannotWrite: 406
        case .cannotMerge: 409
        }
    }

    /// What went wrong, in words a client can act on.
    public var description: String {
        switch self {
        case .invalidDeclaration(let reason):
            return "The API versions cannot be served: \(reason)."
        case .unknownVersion(let name, let served):
            return "API version \(quoted(name)) is not served; the versions served are \(list(served))."
        case .malformedVersion(let name, let served):
            return "\(quoted(name)) is not an API version; the versions served are \(list(served))."
        case .bodyVersionMismatch(let type, let apiVersion, let expected, let found):
            return "The \(type) sent is version \(versionText(found)), but API version \(apiVersion) "
                + "sends and receives version \(versionText(expected))."
        case .undecodableBody(let type, let apiVersion, let underlying):
            return "The body is not a \(type) of API version \(apiVersion): \(clientText(underlying))"
        case .unknownFields(let paths, let type, let apiVersion):
            return "The \(type) sent has \(paths.count == 1 ? "a field" : "fields") that API version "
                + "\(apiVersion) does not have: \(fieldList(paths))."
        case .cannotWrite(let type, let apiVersion, let underlying):
            return "This \(type) cannot be shown at API version \(apiVersion): \(clientText(underlying))"
        case .cannotMerge(let type, let apiVersion, let path, let reason):
            return "The edit of this \(type) at API version \(apiVersion) cannot be applied at "
                + "\(path.isEmpty ? "its root" : escapedForMessage(path, limit: 200)): \(reason)"
        }
    }
}

private func quoted(_ name: String) -> String {
    "\"\(escapedForMessage(name, limit: 64))\""
}

/// Text that may come from a client, made safe to put in an error's description, which a
/// service returns as a body and writes to its logs: control characters, quotes and
/// backslashes escaped as Swift writes them, and at most `limit` characters, the rest cut
/// with an ellipsis.
func escapedForMessage(_ text: String, limit: Int) -> String {
    var output = ""
    var count = 0
    for scalar in text.unicodeScalars {
        guard count < limit else {
            output += "…"
            break
        }
        count += 1
        switch scalar {
        case "\"": output += "\\\""
        case "\\": output += "\\\\"
        case "\n": output += "\\n"
        case "\r": output += "\\r"
        case "\t": output += "\\t"
        default:
            // C0 and C1 controls, DEL, and the format characters that reorder or hide text.
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || scalar.properties.generalCategory == .format
                || scalar.properties.generalCategory == .lineSeparator
                || scalar.properties.generalCategory == .paragraphSeparator
            {
                output += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
    }
    return output
}

/// An underlying error's description, which may quote what a client sent.
private func clientText(_ error: any Error) -> String {
    escapedForMessage(String(describing: error), limit: 400)
}

/// At most ten of a body's field paths, each escaped: the names are the client's.
private func fieldList(_ paths: [String]) -> String {
    let listed = paths.prefix(10).map { escapedForMessage($0, limit: 64) }.joined(separator: ", ")
    return paths.count > 10 ? listed + " and \(paths.count - 10) more" : listed
}

private func list(_ names: [String]) -> String {
    names.joined(separator: ", ")
}

func versionText(_ version: Int?) -> String {
    version.map(String.init) ?? "unversioned"
}
