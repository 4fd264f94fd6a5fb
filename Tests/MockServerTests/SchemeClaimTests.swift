import Foundation
import MockServer
import Testing

/// Each scheme belongs to one protocol, which says what a script of it may use and how a server
/// serves it; the server composes what that protocol supplies.
@Suite("Schemes and the protocols that claim them")
struct SchemeClaimTests {
    @Test("every scheme of the standard vocabulary is claimed by exactly one protocol, and no scheme by FTP alone")
    func oneClaimantEach() {
        var claims: [String: [String]] = [:]
        for scriptProtocol in ScriptVocabulary.standard.protocols {
            for scheme in scriptProtocol.schemes { claims[scheme, default: []].append(scriptProtocol.name) }
        }
        #expect(claims.filter { $0.value.count > 1 }.isEmpty, "\(claims)")
        #expect(ScriptVocabulary.standard.claimant(ofScheme: nil)?.name == "FTP")
        #expect(ScriptVocabulary.standard.claimant(ofScheme: "WebDAV")?.name == "WebDAV")
        #expect(ScriptVocabulary.standard.claimant(ofScheme: "http")?.name == "HTTP")
        #expect(ScriptVocabulary.standard.claimant(ofScheme: "smtp")?.name == "SMTP")
        #expect(ScriptVocabulary.standard.claimant(ofScheme: "gopher") == nil)
    }

    @Test("«passive» is FTP's: refused in an SMTP script, loaded in an FTP script and in one without a scheme")
    func passiveBelongsToFTP() throws {
        let smtp = #"{"scheme": "smtp", "responses": {"pasv": {"pattern": "^PASV", "commands": ["«passive»"]}}}"#
        do {
            _ = try ResponseScript(json: smtp, file: "smtp.json")
            Issue.record("«passive» loaded in an SMTP script")
        } catch {
            #expect(error.description == "smtp.json:1:76: responses.pasv.commands[0]: «passive» is a command of FTP, and this script (scheme \"smtp\") speaks SMTP and TLS",
                    "\(error)")
        }
        _ = try ResponseScript(json: smtp.replacingOccurrences(of: "smtp", with: "ftp"))
        _ = try ResponseScript(json: smtp.replacingOccurrences(of: #""scheme": "smtp", "#, with: ""))
    }

    @Test("a framing is one the scheme's protocol serves: no falling back to another protocol's by framing")
    func framingBelongsToTheClaimant() throws {
        for (json, message) in [
            (#"{"framing": "requests", "responses": {}}"#, #"x.json:1:13: framing: a script without a scheme is framed as lines or raw, not "requests""#),
            (#"{"scheme": "smtp", "framing": "messages", "responses": {}}"#, #"x.json:1:31: framing: a script of scheme "smtp" is framed as lines or raw, not "messages""#),
        ] {
            do {
                _ = try ResponseScript(json: json, file: "x.json")
                Issue.record("loaded \(json)")
            } catch {
                #expect(error.description == message)
            }
        }
        #expect(try ResponseScript(json: #"{"scheme": "http", "framing": "raw", "responses": {}}"#).framing == .raw)
        #expect(try ResponseScript(json: #"{"framing": "raw", "responses": {}}"#).framing == .raw)
    }

    @Test("a WebDAV script may use HTTP's commands, because WebDAV extends HTTP; an HTTP script may not use WebDAV's")
    func webDAVExtendsHTTP() throws {
        let webdav = #"{"scheme": "webdav", "responses": {"get": {"pattern": "^GET", "commands": [{"response": {"body": "x"}}]}, "all": {"pattern": ".", "commands": ["«webdav»"]}}}"#
        _ = try ResponseScript(json: webdav)
        let http = #"{"scheme": "http", "responses": {"all": {"pattern": ".", "commands": ["«webdav»"]}}}"#
        do {
            _ = try ResponseScript(json: http, file: "http.json")
            Issue.record("«webdav» loaded in an HTTP script")
        } catch {
            #expect(error.description == "http.json:1:71: responses.all.commands[0]: «webdav» is a command of WebDAV, and this script (scheme \"http\") speaks HTTP",
                    "\(error)")
        }
    }

    @Test("only FTP binds the shared data port: an FTP script and one without a scheme get it, SMTP, HTTP and WebSocket scripts do not")
    func dataPortIsFTPs() throws {
        let scripts = [
            "ftp": true, "": true, "smtp": false, "imap": false, "http": false, "websocket": false,
        ]
        for (scheme, bindsDataPort) in scripts {
            let schemeKey = scheme.isEmpty ? "" : #""scheme": "\#(scheme)", "#
            let server = try MockServer(script: ResponseScript(json: #"{\#(schemeKey)"responses": {}}"#))
            try server.start()
            defer { server.stop() }
            #expect((server.dataPort != 0) == bindsDataPort, "scheme \"\(scheme)\": data port \(server.dataPort)")
        }
    }

    @Test("url(for:) takes the scheme's TLS form from the protocol that claims it")
    func tlsSchemes() throws {
        var tls = MockServer.Configuration()
        tls.tls = try .generated(mode: .implicit)
        let expected = ["ftp": "ftps", "webdav": "webdavs", "dav": "davs", "http": "https", "smtp": "smtps", "imap": "imaps", "pop3": "pop3s", "websocket": "wss", "ws": "wss"]
        for (scheme, tlsScheme) in expected {
            let script = try ResponseScript(json: #"{"scheme": "\#(scheme)", "responses": {}}"#)
            #expect(try MockServer(script: script, configuration: tls).url().scheme == tlsScheme)
            #expect(try MockServer(script: script).url().scheme == (scheme == "websocket" ? "ws" : scheme))
        }
        #expect(MockServer(httpResponder: HTTPStubResponderForSchemes(), configuration: tls).url().scheme == "https")
    }
}

/// An HTTP responder that answers nothing: only its server's URL is asked for.
private struct HTTPStubResponderForSchemes: HTTPMockResponder {
    func respond(to request: HTTPMockRequest, context: HTTPRequestContext) async throws -> HTTPReply? { nil }
}
