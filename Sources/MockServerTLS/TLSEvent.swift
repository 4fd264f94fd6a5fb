import MockServerCore

/// What a TLS transport reports to its connection, which records it in the transcript.
package enum TLSEvent: Sendable {
    /// The handshake finished.
    case handshakeDone(TLSHandshake)
    /// The handshake or the record layer failed, for the reason given.
    case failed(String)
    /// The peer ended the connection without TLS's `close_notify` (a truncation a client must notice).
    case truncated
    /// A fault the configuration asked for was played, as described.
    case fault(String)

    /// The transcript's note for the event.
    package var note: Transcript.Note {
        switch self {
        case .handshakeDone(let handshake): Transcript.Note(kind: "tls-handshake", text: "TLS handshake done: \(handshake)")
        case .failed(let reason): Transcript.Note(kind: "tls-failed", text: "TLS failed: \(reason)")
        case .truncated: Transcript.Note(kind: "tls-truncated", text: "TLS ended without close_notify")
        case .fault(let description): Transcript.Note(kind: "tls-fault", text: "TLS fault: \(description)")
        }
    }
}
