import Foundation
import MockServer

/// The explanation of inputs that no response matched, with a response entry ready to paste for
/// each, the way Nocilla answered an unstubbed request with the code to stub it.
public struct UnexpectedInputReport: Sendable, CustomStringConvertible {
    /// The unmatched inputs, in order, with their connections.
    public let unmatched: [Transcript.Entry]
    /// The transcript when the report was made.
    public let transcript: [Transcript.Entry]

    /// Builds a report from a server's transcript, or `nil` when every input matched.
    public init?(server: MockServer) {
        let unmatched = server.transcript.unmatched
        guard !unmatched.isEmpty else { return nil }
        self.unmatched = unmatched
        self.transcript = server.transcript.entries
    }

    /// The inputs, the entries to add, then the transcript.
    public var description: String {
        let inputs = unmatched.compactMap { entry -> (Int, InputUnit)? in
            if case .unmatched(let input) = entry.event { (entry.connection, input) } else { nil }
        }
        var lines = ["MockServer received \(inputs.count) input\(inputs.count == 1 ? "" : "s") that no response matched:"]
        for (connection, input) in inputs { lines.append("  #\(connection)  \(input)") }
        lines.append("")
        lines.append("To answer \(inputs.count == 1 ? "it" : "them"), add to \"responses\" (and each name to the set's \"responses\" list):")
        var seen = Set<String>()
        for (_, input) in inputs where seen.insert(input.text).inserted {
            lines.append("  " + Self.snippet(for: input))
        }
        lines.append("")
        lines.append("Transcript:")
        lines.append(contentsOf: transcript.map { "  \($0)" })
        return lines.joined(separator: "\n")
    }

    /// A response entry for `input`, as JSON for a response file: a one-line unit is matched
    /// exactly; a longer one (an HTTP request) by its first line. An HTTP request is answered with
    /// a whole response (`{"response": {"status": "200 OK"}}`, which clients accept), a line with
    /// `200 OK`.
    public static func snippet(for input: InputUnit) -> String {
        // "\r\n" is one Character, so look for any newline rather than splitting on "\n".
        let text = input.text
        let newline = text.firstIndex { $0.isNewline }
        let firstLine = String(text[..<(newline ?? text.endIndex)])
        let words = firstLine.split(separator: " ", maxSplits: 1)
        let name = words.first.map { $0.lowercased() }.flatMap { $0.isEmpty ? nil : $0 } ?? "empty line"
        let pattern = "^" + escapedPattern(firstLine) + (newline == nil ? "$" : "\\r?\\n")
        let command = isHTTPRequestLine(firstLine) ? #"{"response": {"status": "200 OK"}}"# : #""200 OK\r\n""#
        return "\(json(name)): { \"pattern\": \(json(pattern)), \"commands\": [\(command)] }"
    }

    /// Whether `line` is an HTTP request line: `METHOD TARGET HTTP/x.y`.
    static func isHTTPRequestLine(_ line: String) -> Bool {
        let parts = line.split(separator: " ")
        return parts.count == 3 && parts[2].hasPrefix("HTTP/") && !parts[0].isEmpty
            && parts[0].allSatisfy { $0.isUppercase || $0 == "-" || $0 == "_" }
    }

    /// `text` with regular-expression metacharacters escaped, and nothing else (so `/` stays `/`).
    static func escapedPattern(_ text: String) -> String {
        var result = ""
        for character in text {
            if "\\^$.|?*+()[]{}".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    private static func json(_ text: String) -> String {
        text.escaped(.json)
    }
}
