/// Why a message does not match a pattern: where (the JSON path, by JSON names), what the pattern
/// expected there and what the message holds, both as compact JSON (`absent` for nothing), for the
/// "nearest endpoint" a call that matches nothing is told about.
package struct ProtoJSONMismatch: Sendable, Hashable, CustomStringConvertible {
    /// `$.location.latitude`, `$.features[2]`, `$.labels["env"]`.
    package var path: String
    package var expected: String
    package var found: String

    package init(path: String, expected: String, found: String) {
        self.path = path
        self.expected = expected
        self.found = found
    }

    /// `$.location.latitude: expected 5, found 7`.
    package var description: String { "\(path): expected \(expected), found \(found)" }
}
