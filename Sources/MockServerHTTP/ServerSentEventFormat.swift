/// How one server-sent event is written (the WHATWG HTML standard's `text/event-stream`): its lines
/// and the blank line that dispatches it. The one writer behind stubs, endpoints files and scripts.
package enum ServerSentEventFormat {
    /// The event as sent: `: comment` lines, `id:`, `event:`, a `data:` line per line of the data
    /// (CR LF and CR counted as line ends), `retry:`, then a blank line.
    package static func text(id: String?, event: String?, data: String?, retry: Int?, comment: String?) -> String {
        var lines: [String] = []
        if let comment { lines += comment.split(separator: "\n", omittingEmptySubsequences: false).map { ": \($0)" } }
        if let id { lines.append("id: \(id)") }
        if let event { lines.append("event: \(event)") }
        if let data {
            lines += lineEndsAsLF(data).split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)" }
        }
        if let retry { lines.append("retry: \(retry)") }
        return lines.joined(separator: "\n") + "\n\n"
    }

    /// CR LF and CR as LF: the event stream's line ends are all the same to a client.
    private static func lineEndsAsLF(_ text: String) -> String {
        var result = ""
        var previousCR = false
        for character in text.unicodeScalars {
            if character == "\r" {
                result.append("\n")
                previousCR = true
                continue
            }
            if character == "\n" && previousCR {
                previousCR = false
                continue
            }
            previousCR = false
            result.unicodeScalars.append(character)
        }
        return result
    }
}
