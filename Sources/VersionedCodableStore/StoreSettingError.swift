/// A setting or a pair of reports that a census or an upgrade refuses, rather than guess what
/// was meant.
public enum StoreSettingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A setting is outside the values it can take: `requirement` says which it can.
    case outOfRange(setting: String, value: String, requirement: String)

    /// Two reports cannot be added up: they come from runs of different kinds, as `detail`
    /// says.
    case reportsDiffer(String)

    /// A sentence naming the setting and what it accepts, or why the reports differ.
    public var description: String {
        switch self {
        case .outOfRange(let setting, let value, let requirement):
            return "\(setting) is \(value), but it must be \(requirement)."
        case .reportsDiffer(let detail):
            return "The reports cannot be added up: \(detail)."
        }
    }

    /// Refuses a count below `minimum`.
    static func check(_ value: Int, atLeast minimum: Int, _ setting: String) throws {
        guard value >= minimum else {
            throw outOfRange(setting: setting, value: "\(value)", requirement: "at least \(minimum)")
        }
    }

    /// Refuses a number of seconds that is negative, infinite or not a number.
    static func check(seconds value: Double, _ setting: String) throws {
        guard value.isFinite, value >= 0 else {
            throw outOfRange(setting: setting, value: "\(value)", requirement: "a finite number of seconds, 0 or more")
        }
    }
}
