import MockServerCore
/// How a connection's input is cut into units for the responder.
public enum Framing: String, Sendable, Hashable, CaseIterable {
    /// One unit per line (LF, with a CR before it dropped): FTP, SMTP, POP3, IMAP, …
    case lines
    /// One unit per whole HTTP/1.x request, body included (by Content-Length or chunked).
    case requests
    /// One unit per read, as the original MockServer did: a unit boundary depends on timing.
    case raw

    /// The framing a response file's `scheme` implies: requests for HTTP and WebDAV, lines otherwise.
    public static func implied(byScheme scheme: String?) -> Framing {
        switch scheme?.lowercased() {
        case "http", "https", "webdav", "webdavs", "dav", "davs": .requests
        default: .lines
        }
    }
}
