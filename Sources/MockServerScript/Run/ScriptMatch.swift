import MockServerCore

extension ScriptRun {
    /// The input a response answers, and the capture groups of its pattern.
    public struct Match: Sendable, Hashable {
        /// The input unit (`$0`).
        public let input: InputUnit
        /// Capture groups 1…n; `nil` for a group that did not take part in the match.
        public let groups: [String?]

        /// Creates a match.
        public init(input: InputUnit, groups: [String?] = []) {
            self.input = input
            self.groups = groups
        }

        /// The match of a connection's opening, with no input.
        public static let opening = ScriptRun.Match(input: InputUnit(bytes: []))
    }
}
