/// An HTTP/2 failure on demand, in place of a response (an endpoints file's `"reset"` or
/// `"goaway"`): the stream reset, or the connection given up, with an RFC 9113 error name.
///
/// On an HTTP/1.1 connection there is no stream to reset: a reset resets the connection (TCP RST),
/// a GOAWAY closes it once what came before is sent.
package struct HTTPStreamFault: Sendable, Hashable {
    /// What fails.
    package enum Kind: String, Sendable {
        /// RST_STREAM on the request's stream.
        case reset
        /// GOAWAY whose last stream is the one before the request's, then the connection closes.
        case goaway
    }

    package let kind: Kind
    /// The error's RFC 9113 name, one of ``errorNames`` (`REFUSED_STREAM`).
    package let code: String

    /// RFC 9113 §7's error names, in code order (HTTP/2's codec maps them to their numbers).
    package static let errorNames = ["NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT",
                                     "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR",
                                     "CONNECT_ERROR", "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED"]

    /// A fault of `kind` with the error named `code`.
    package init(_ kind: Kind, code: String) {
        self.kind = kind
        self.code = code
    }
}
