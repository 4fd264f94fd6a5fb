import Foundation
import MockServer
import Testing
import TestSupport

/// Each protocol's settings are a value of its own type in the configuration's `settings` (issue
/// 50), and the spellings they had as the configuration's own properties read and write those values.
@Suite("Protocol settings in the configuration", .offPool)
struct ProtocolSettingsTests {
    @Test("a configuration holds no protocol's value until one is set, and each type's defaults are the documented ones")
    func defaults() {
        let configuration = MockServer.Configuration()
        #expect(configuration.settings.isEmpty)
        #expect(MockServer.FTPServerSettings() == MockServer.FTPServerSettings(uploadSettleTime: .milliseconds(300), maximumUploadSize: 64 << 20))
        #expect(MockServer.HTTPServerSettings() == MockServer.HTTPServerSettings(maximumRequestBodySize: 64 << 20, requestHeadTimeout: .seconds(60)))
        let http2 = MockServer.HTTP2ServerSettings()
        #expect(http2.mode == .allow && http2.maxConcurrentStreams == 100 && http2.initialWindowSize == 1 << 20 && http2.maxFrameSize == 16_384)
        #expect(http2.defences == MockServer.HTTP2ServerSettings.Defences())
    }

    @Test("a change through settings[Type.self, default:] is kept, and each type keeps its own value")
    func keyedByType() {
        var configuration = MockServer.Configuration()
        configuration.settings[MockServer.HTTP2ServerSettings.self, default: .init()].mode = .refuse
        configuration.settings[MockServer.FTPServerSettings.self, default: .init()].maximumUploadSize = 1 << 10
        #expect(configuration.settings[MockServer.HTTP2ServerSettings.self]?.mode == .refuse)
        #expect(configuration.settings[MockServer.HTTP2ServerSettings.self]?.maxConcurrentStreams == 100)
        #expect(configuration.settings[MockServer.FTPServerSettings.self]?.maximumUploadSize == 1 << 10)
        #expect(configuration.settings[MockServer.FTPServerSettings.self]?.uploadSettleTime == .milliseconds(300))
        #expect(configuration.settings[MockServer.HTTPServerSettings.self] == nil)
    }

    @Test("ftpSettings, httpSettings and http2Settings read the defaults while settings holds none, and a change through them is stored under the type")
    func shortAccessors() {
        var configuration = MockServer.Configuration()
        #expect(configuration.ftpSettings == MockServer.FTPServerSettings())
        #expect(configuration.httpSettings == MockServer.HTTPServerSettings())
        #expect(configuration.http2Settings == MockServer.HTTP2ServerSettings())
        #expect(configuration.settings.isEmpty)
        configuration.ftpSettings.uploadSettleTime = .milliseconds(20)
        configuration.httpSettings.maximumRequestBodySize = 1 << 10
        configuration.http2Settings.mode = .refuse
        configuration.http2Settings.defences.resetBudget = 10
        #expect(configuration.settings[MockServer.FTPServerSettings.self] == MockServer.FTPServerSettings(uploadSettleTime: .milliseconds(20)))
        #expect(configuration.settings[MockServer.HTTPServerSettings.self] == MockServer.HTTPServerSettings(maximumRequestBodySize: 1 << 10))
        #expect(configuration.settings[MockServer.HTTP2ServerSettings.self]?.mode == .refuse)
        #expect(configuration.settings[MockServer.HTTP2ServerSettings.self]?.defences.resetBudget == 10)
        configuration.settings[MockServer.HTTP2ServerSettings.self] = MockServer.HTTP2ServerSettings(maxConcurrentStreams: 3)
        #expect(configuration.http2Settings.maxConcurrentStreams == 3 && configuration.http2Settings.mode == .allow)
    }

    // Deprecated itself, so that its uses of the deprecated spellings do not warn.
    @available(*, deprecated, message: "uses the deprecated spellings on purpose")
    @Test("the configuration's old protocol properties read and write their protocol's value in settings")
    func deprecatedForwarders() {
        var configuration = MockServer.Configuration(port: 0, uploadSettleTime: nil)
        #expect(configuration.settings[MockServer.FTPServerSettings.self] == MockServer.FTPServerSettings(uploadSettleTime: nil))
        #expect(configuration.uploadSettleTime == nil)
        configuration.maximumUploadSize = 5
        configuration.maximumRequestBodySize = 6
        configuration.requestHeadTimeout = .seconds(7)
        configuration.http2 = .require
        configuration.http2MaxConcurrentStreams = 8
        configuration.http2InitialWindowSize = 9
        configuration.http2MaxFrameSize = 20_000
        configuration.http2Defences = .off
        #expect(configuration.settings[MockServer.FTPServerSettings.self] == MockServer.FTPServerSettings(uploadSettleTime: nil, maximumUploadSize: 5))
        #expect(configuration.settings[MockServer.HTTPServerSettings.self] == MockServer.HTTPServerSettings(maximumRequestBodySize: 6, requestHeadTimeout: .seconds(7)))
        #expect(configuration.settings[MockServer.HTTP2ServerSettings.self]
                == MockServer.HTTP2ServerSettings(mode: .require, maxConcurrentStreams: 8, initialWindowSize: 9, maxFrameSize: 20_000, defences: .off))
        #expect(MockServer.Configuration.HTTP2Mode.self == MockServer.HTTP2ServerSettings.Mode.self)
        #expect(MockServer.Configuration.HTTP2Defences.self == MockServer.HTTP2ServerSettings.Defences.self)
        #expect(MockServer.Configuration().http2 == .allow && MockServer.Configuration().maximumUploadSize == 64 << 20)
    }

    @Test("an HTTP server's HTTP/2 mode comes from its HTTP/2 settings: refuse answers the preface 400, and the default serves h2c")
    func http2ModeFromSettings() async throws {
        var refusing = MockServer.Configuration()
        refusing.settings[MockServer.HTTP2ServerSettings.self] = MockServer.HTTP2ServerSettings(mode: .refuse)
        for (configuration, expected) in [(refusing, "HTTP/1.1 400"), (MockServer.Configuration(), "")] {
            let server = MockServer(httpResponder: HelloResponder(), configuration: configuration)
            try await server.start()
            defer { server.stop() }
            let answer = try await offPool { try Self.firstBytes(port: server.port, sending: Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)) }
            if expected.isEmpty {
                // HTTP/2's driver answers the preface with its SETTINGS frame (type 4).
                #expect(answer.count == 12 && answer[3] == 4, "\(answer)")
            } else {
                #expect(String(decoding: answer, as: UTF8.self).hasPrefix(expected))
            }
        }
    }

    /// The first bytes the server sends after `bytes`.
    static func firstBytes(port: UInt16, sending bytes: [UInt8]) throws -> [UInt8] {
        let client = try TestClient(port: port)
        try client.send(bytes)
        return try client.read(count: 12)
    }
}

/// Answers every request `200 hello`.
private struct HelloResponder: HTTPMockResponder {
    func respond(to request: HTTPMockRequest, context: HTTPRequestContext) async throws -> HTTPReply? {
        HTTPReply(HTTPMockResponse(status: 200, body: Array("hello".utf8)))
    }
}
