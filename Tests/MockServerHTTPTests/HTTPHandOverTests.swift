import Testing
import MockServerCore
import MockServerHTTP

/// The hand-over's per-request Upgrade check, whose fast path rules requests out by the length of
/// their field names before any token is read.
@Suite("HTTP hand-over")
struct HTTPHandOverTests {
    private let handOver = HTTPHandOver(name: "HTTP/2", preface: Array("PRI".utf8), upgradeToken: "h2c",
                                        upgradeFields: ["HTTP2-Settings"]) { _, _ in fatalError("not made in these tests") }

    private func request(_ fields: String) throws -> HTTPMockRequest {
        try #require(HTTPMockRequest(parsing: Array("GET / HTTP/1.1\r\nHost: a\r\n\(fields)\r\n".utf8)))
    }

    @Test("an upgrade is recognised in any case, after a field of the same length (Referer)", arguments: [
        "Upgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n",
        "Referer: /x\r\nuPgRaDe: H2C\r\nconnection: upgrade, http2-settings\r\nhttp2-settings: AAMAAABkAAQAAP__\r\n",
        "Referer: /x\r\nUpgrade: websocket, h2c\r\nConnection: keep-alive, Upgrade\r\nConnection: HTTP2-Settings\r\nHTTP2-Settings: \r\n",
    ])
    func recognised(_ fields: String) throws {
        #expect(handOver.isUpgrade(try request(fields)))
    }

    @Test("a request without the token, the field or the Connection names is no upgrade", arguments: [
        "",
        "Referer: /x\r\nAccept: */*\r\n",
        "Upgrade: websocket\r\nConnection: Upgrade, HTTP2-Settings\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n",
        "Upgrade: h2c\r\nConnection: HTTP2-Settings\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n",
        "Upgrade: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\n",
        "Upgrades: h2c\r\nConnection: Upgrade, HTTP2-Settings\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n",
    ])
    func refused(_ fields: String) throws {
        #expect(!handOver.isUpgrade(try request(fields)))
    }
}
