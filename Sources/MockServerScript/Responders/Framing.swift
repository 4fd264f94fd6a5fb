import MockServerCore
/// How a connection's input is cut into units for the responder.
public enum Framing: String, Sendable, Hashable, CaseIterable {
    /// One unit per line (LF, with a CR before it dropped): FTP, SMTP, POP3, IMAP, …
    case lines
    /// One unit per whole request, body included, as a request protocol's framer cuts it (HTTP/1.x's,
    /// by Content-Length or chunked); a script's scheme says which protocol that is.
    case requests
    /// One unit per message of a message protocol (WebSocket's text and binary messages, however
    /// they were fragmented); a script's scheme says which protocol that is.
    case messages
    /// One unit per read, as the original MockServer did: a unit boundary depends on timing.
    case raw
}
