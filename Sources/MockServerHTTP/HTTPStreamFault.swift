/// An HTTP/2 failure on demand, in place of a response (an endpoints file's or a script's
/// `"reset"`, `"goaway"`, `"stall"`, `"badHPACK"` or `"illegalFrame"`; a stub's `resetStream(_:)`,
/// `goAway(_:)`, `stalledStream`, `badHPACKBlock` or `illegalFrame`).
///
/// On an HTTP/1.1 connection there is no stream to fail: a reset resets the connection (TCP RST), a
/// stall keeps it open and sends nothing more, and the others close it once what came before is sent.
package enum HTTPStreamFault: Sendable, Hashable {
    /// RST_STREAM on the request's stream, with the error named `code` (one of ``errorNames``).
    case reset(code: String)
    /// GOAWAY whose last stream is the one before the request's, with the error named `code`, then
    /// the connection closes.
    case goaway(code: String)
    /// The response's HEADERS, then nothing: the body waits as if the client had granted no window,
    /// and the stream stays open (the client's read times out). Other streams go on.
    case stall
    /// A HEADERS frame whose field block no HPACK decoder can read (an indexed field with index 0,
    /// RFC 7541 §6.1): the client must end the connection with COMPRESSION_ERROR.
    case badHPACK
    /// A SETTINGS frame on the request's stream, which RFC 9113 §6.5 makes a connection error of
    /// type PROTOCOL_ERROR.
    case illegalFrame

    /// The key that asks for each fault, in an endpoints file's response or as a script command.
    package static let keys = ["reset", "goaway", "stall", "badHPACK", "illegalFrame"]

    /// RFC 9113 §7's error names, in code order: the one list of them (HTTP/2's codec numbers its
    /// error codes by it).
    package static let errorNames = ["NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT",
                                     "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR",
                                     "CONNECT_ERROR", "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED"]

    /// What the fault does on an HTTP/1.1 connection, in words (logged, and in the docs).
    package var onHTTP11: String {
        switch self {
        case .reset: "the connection is reset"
        case .stall: "the connection stays open and nothing more is sent"
        case .goaway, .badHPACK, .illegalFrame: "the connection closes"
        }
    }
}
