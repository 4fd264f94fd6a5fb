/// A schema that cannot be read: the file, line and column at fault (1-based; 0 when the fault is
/// not at a place, as a missing import), and what is wrong.
package struct ProtoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's name as given or imported (`routeguide/route_guide.proto`).
    package var file: String
    package var line: Int
    package var column: Int
    package var reason: String

    package init(file: String, line: Int, column: Int, reason: String) {
        self.file = file
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// `file:line:column: reason`, as protoc and compilers write it.
    package var description: String {
        line > 0 ? "\(file):\(line):\(column): \(reason)" : "\(file): \(reason)"
    }
}
