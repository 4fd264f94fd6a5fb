@testable import MockServerTesting
import TestSupport
import Testing

/// `URLSessionWebSockets.areAvailable` reads libcurl's own list of protocols: it must say what
/// `curl -V` says of the same library.
@Suite("URLSession WebSocket support", .offPool)
struct URLSessionWebSocketsTests {
    @Test("areAvailable agrees with curl -V (or is true on Apple platforms)", .enabled(if: Tools.hasCurl))
    func agreesWithCurl() {
        #expect(URLSessionWebSockets.areAvailable == Tools.urlSessionSpeaksWebSocket)
    }

    #if !canImport(Darwin)
    @Test("the protocols read from libcurl include every one curl -V lists (which folds rtmp's variants into one)", .enabled(if: Tools.hasCurl))
    func protocolList() throws {
        let version = try Tools.run("curl", ["-V"])
        let line = try #require(version.stdout.split(separator: "\n").first { $0.hasPrefix("Protocols:") })
        let listed = Set(line.split(separator: " ").dropFirst().map(String.init))
        let read = Set(try #require(URLSessionWebSockets.libcurlProtocols))
        #expect(listed.isSubset(of: read) && listed.contains("http"), "curl -V: \(listed.sorted()); read: \(read.sorted())")
    }
    #endif
}
