/// One server-sent event of an endpoint's `"events"`: its fields as the file gives them, and the
/// wait before it is sent.
package struct EndpointEvent: Sendable {
    package var id: String?
    package var event: String?
    package var data: String?
    package var retry: Int?
    package var comment: String?
    /// Seconds after the previous event (or the head), as a duration.
    package var delay: Duration?

    /// An event with no field yet, for a decoder to fill in.
    package init() {}
}

/// How a streamed endpoint response ends: `"end"` in the file.
package enum EndpointStreamEnd: String, Sendable, CaseIterable {
    /// The last piece, then the end of the body: the connection can serve the next request.
    case complete
    /// Half of the last piece, then the connection closes: the client sees the body cut short.
    case cut
    /// The pieces, then nothing more: the body never ends and the connection stays open.
    case hang
}
