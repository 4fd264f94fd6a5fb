import MockServerHTTP

extension StubStream {
    /// One event of a `text/event-stream` response (the WHATWG HTML standard's server-sent events):
    /// the fields a client's `EventSource` reads, and the wait before the event is sent.
    ///
    /// ```swift
    /// server.stubRequest("GET", "/ticks").andReturn(.events([
    ///     StubStream.Event(event: "tick", data: "1"),
    ///     StubStream.Event(event: "tick", data: "2", delay: .milliseconds(200)),
    /// ]))
    /// ```
    public struct Event: Sendable, Equatable {
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

        /// The event as sent: its lines (`: comment`, `id:`, `event:`, a `data:` line per line of the
        /// data, `retry:`) and the blank line that dispatches it.
        public var text: String {
            ServerSentEventFormat.text(id: id, event: event, data: data, retry: retry, comment: comment)
        }
    }
}
