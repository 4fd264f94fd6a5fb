/// How a streamed endpoint response ends: `"end"` in the file.
package enum EndpointStreamEnd: String, Sendable, CaseIterable {
    /// The last piece, then the end of the body: the connection can serve the next request.
    case complete
    /// Half of the last piece, then the connection closes: the client sees the body cut short.
    case cut
    /// The pieces, then nothing more: the body never ends and the connection stays open.
    case hang
}
