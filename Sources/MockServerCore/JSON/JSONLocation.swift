extension JSONNode {
    /// A 1-based line and column in a JSON document (a response file, an endpoints file, a mock-data
    /// file); columns count characters, not bytes.
    public struct Location: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The line, from 1.
        public let line: Int
        /// The column, from 1.
        public let column: Int

        /// Creates a location.
        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }

        /// `line:column`.
        public var description: String { "\(line):\(column)" }

        /// Orders by line, then column.
        public static func < (lhs: JSONNode.Location, rhs: JSONNode.Location) -> Bool {
            (lhs.line, lhs.column) < (rhs.line, rhs.column)
        }
    }
}
