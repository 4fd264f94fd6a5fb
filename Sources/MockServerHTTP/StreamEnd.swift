extension HTTPMockResponse {
    /// How a body sent in timed pieces ends: a stub's (``StubStream/End`` names it), an endpoints
    /// file's `"end"` and a script's.
    ///
    /// ```swift
    /// server.stubRequest("GET", "/ticks").andReturn(.events([StubStream.Event(data: "1")], end: .hang))
    /// ```
    public enum StreamEnd: String, Sendable, CaseIterable {
        /// After the last piece, the body's end (`0` chunk): the connection serves the next request.
        case complete
        /// Half of the last piece, then the connection closes: the client sees a body cut short.
        case cut
        /// After the last piece, nothing: the body never ends, the connection stays open.
        case hang
    }
}
