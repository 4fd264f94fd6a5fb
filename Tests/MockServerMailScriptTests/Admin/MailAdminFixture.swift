import Foundation
import MockServer
import MockServerAdmin
import MockServerCore
import MockServerEngine
import MockServerMail
@testable import MockServerMailScript
import MockServerScript
import Testing
import TestSupport

/// A control API server (as `mockserver mail --admin` starts one) with the mail routes (Mailpit's
/// and ours) over a store and a fault plan the test fills and reads.
struct MailAdminFixture {
    let store: MailStore
    let faults = MailFaultPlan(seed: 7)
    let admin: MockServer

    init(store: MailStore = MailStore()) async throws {
        self.store = store
        let api = MailpitAPI(store: store, faults: faults)
        // Served as the mail server serves SMTP: by a protocol that is in no vocabulary.
        let mock = MockServer(responder: PatternResponder([]), configuration: .init(), vocabulary: ScriptVocabulary([]),
                              serving: MailAdminRoutesProtocol(routes: api.routes + MailControlAPI(store: store, faults: faults).routes))
        admin = MockServer(httpResponder: try AdminResponder(.init(server: mock, shutdown: {})), configuration: .init(host: "127.0.0.1"))
        try await admin.start()
    }

    var base: String { "http://127.0.0.1:\(admin.port)" }

    /// Runs `body` in Python after a helper, `call(method, path, body=None)`, that answers
    /// `(status, content type, bytes)`, and `get(path)` that answers the JSON of a 200.
    func python(_ body: String) throws -> Tools.Result {
        try Tools.python("""
            import json, urllib.request, urllib.error
            base = "\(base)"
            def call(method, path, body=None, raw=None):
                data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
                request = urllib.request.Request(base + path, data=data, method=method,
                                                 headers={"Content-Type": "application/json"} if data is not None else {})
                try:
                    with urllib.request.urlopen(request, timeout=20) as answer:
                        return answer.status, answer.headers.get("Content-Type"), answer.read()
                except urllib.error.HTTPError as error:
                    return error.code, error.headers.get("Content-Type"), error.read()
            def get(path):
                status, kind, data = call("GET", path)
                assert status == 200 and kind == "application/json", (path, status, kind, data)
                return json.loads(data)
            \(body)
            print("ok")
            """)
    }

    /// A message from Ann to Dana, copying Lee, with `extra` header lines and `body`.
    static func message(_ subject: String, extra: String = "", body: String = "Hello Dana,\r\nyour code is 123456.\r\n") -> Data {
        Data(("From: Ann Example <ann@example.com>\r\nTo: Dana <dana@example.net>\r\nCc: lee@example.org\r\n"
            + "Subject: \(subject)\r\nMessage-ID: <\(subject.filter(\.isLetter))@example.com>\r\nDate: Sun, 29 Nov 2026 10:00:00 +0100\r\n"
            + extra + "\r\n" + body).utf8)
    }

    /// A multipart message: text and HTML bodies, an inline image with a Content-ID, a file.
    static let multipart = Data("""
        From: shop@example.com\r
        To: dana@example.net\r
        Subject: Your receipt\r
        MIME-Version: 1.0\r
        Content-Type: multipart/mixed; boundary="outer"\r
        \r
        --outer\r
        Content-Type: multipart/alternative; boundary="inner"\r
        \r
        --inner\r
        Content-Type: text/plain; charset=utf-8\r
        \r
        Thanks for your order.\r
        --inner\r
        Content-Type: text/html; charset=utf-8\r
        \r
        <html><head><style>p{}</style></head><body><p>Thanks&nbsp;for <b>your</b> order &amp; more.</p></body></html>\r
        --inner--\r
        --outer\r
        Content-Type: image/png\r
        Content-Disposition: inline\r
        Content-ID: <logo@example.com>\r
        Content-Transfer-Encoding: base64\r
        \r
        iVBORw0KGgo=\r
        --outer\r
        Content-Type: text/plain; name="receipt.txt"\r
        Content-Disposition: attachment; filename="receipt.txt"\r
        Content-Transfer-Encoding: base64\r
        \r
        VG90YWw6IDQyIEVVUgo=\r
        --outer--\r

        """.utf8)

    static func envelope(to recipients: [String], user: String? = nil) -> MailEnvelope {
        MailEnvelope(sender: "ann@example.com", recipients: recipients,
                     origin: .smtp(heloName: "client.example", client: nil, security: .plain, user: user))
    }
}
