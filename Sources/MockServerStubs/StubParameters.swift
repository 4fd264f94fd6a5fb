import MockServerCore

/// Named values of a request (path parameters, form fields), by name or as members:
/// `request.pathParameters.version`.
@dynamicMemberLookup
public struct StubParameters: Sendable, Equatable {
    /// Every value of each name, in the order they came.
    public let all: [String: [String]]

    /// Creates parameters from names and their values in order.
    public init(_ all: [String: [String]] = [:]) {
        self.all = all
    }

    /// The first value of `name`.
    public subscript(name: String) -> String? { all[name]?.first }

    /// The first value of the member's name.
    public subscript(dynamicMember name: String) -> String? { self[name] }

    /// Every value of `name`, in order (a repeated query key gives several).
    public func values(_ name: String) -> [String] { all[name] ?? [] }

    /// Whether there are none.
    public var isEmpty: Bool { all.isEmpty }

    /// Parses `a=1&b=2&a=3` (form or query encoding: `+` is a space, `%XX` decoded).
    public static func decoding(formEncoded text: Substring) -> StubParameters {
        var all: [String: [String]] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decode(parts[0])
            let value = parts.count > 1 ? decode(parts[1]) : ""
            all[name, default: []].append(value)
        }
        return StubParameters(all)
    }

    /// `+` as a space and `%XX` as the byte it stands for; invalid escapes stay as written.
    static func decode(_ text: Substring) -> String {
        String(decoding: PercentCoding.decode(text.utf8, plusAsSpace: true) ?? Array(text.utf8), as: UTF8.self)
    }
}
