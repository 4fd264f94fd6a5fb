extension HTTPMockResponse {
    /// One event of a `text/event-stream` response (the WHATWG HTML standard's server-sent events):
    /// the fields a client's `EventSource` reads, and the wait before the event is sent. The one
    /// model behind a stub's events (``StubStream/Event`` names it), an endpoints file's `"events"`
    /// and a script's `{"response": {"events": …}}`.
    ///
    /// ```swift
    /// server.stubRequest("GET", "/ticks").andReturn(.events([
    ///     StubStream.Event(event: "tick", data: "1"),
    ///     StubStream.Event(event: "tick", data: "2", delay: .milliseconds(200)),
    /// ]))
    /// ```
    public struct ServerSentEvent: Sendable, Equatable {
        /// `id:`, the client's last event ID.
        public var id: String?
        /// `event:`, the event's type (`message` when absent).
        public var event: String?
        /// `data:`, one `data:` line per line of the text.
        public var data: String?
        /// `retry:`, the client's reconnection time in milliseconds.
        public var retry: Int?
        /// A comment line (`: text`), which clients ignore: a keep-alive.
        public var comment: String?
        /// The wait before this event, after the previous one (or the response's head).
        public var delay: Duration?

        /// An event; give at least one of `data`, `comment`, `retry` or `id`.
        public init(id: String? = nil, event: String? = nil, data: String? = nil, retry: Int? = nil, comment: String? = nil, delay: Duration? = nil) {
            self.id = id
            self.event = event
            self.data = data
            self.retry = retry
            self.comment = comment
            self.delay = delay
        }

        /// The event as sent: `: comment` lines, `id:`, `event:`, a `data:` line per line of the
        /// data (CR LF and CR counted as line ends), `retry:`, then the blank line that dispatches it.
        public var text: String {
            var lines: [String] = []
            if let comment { lines += comment.split(separator: "\n", omittingEmptySubsequences: false).map { ": \($0)" } }
            if let id { lines.append("id: \(id)") }
            if let event { lines.append("event: \(event)") }
            if let data {
                lines += Self.lineEndsAsLF(data).split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)" }
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
}
