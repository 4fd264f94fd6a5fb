import MockServerCore

/// JSON that is not a message of the type it was read as: where it is (the JSON path, as
/// `$.features[2].location.latitude`, and the line and column in the text it was read from) and why.
package struct ProtoJSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path from the message's root (`$`) to the value at fault, by the keys as written.
    package var path: String
    /// Where the value at fault starts (line 0 for JSON made in code).
    package var line: Int
    package var column: Int
    /// What is wrong (`3000000000 is out of range for int32`).
    package var reason: String

    package init(path: String, at location: JSONNode.Location, _ reason: String) {
        self.path = path
        line = location.line
        column = location.column
        self.reason = reason
    }

    /// `line:column: $.path: reason`, or `$.path: reason` for JSON made in code.
    package var description: String {
        line > 0 ? "\(line):\(column): \(path): \(reason)" : "\(path): \(reason)"
    }
}
