import MockServerLegacyNames
import Testing

/// Code written against the names six types had before they were renamed still compiles, with
/// deprecation warnings, when it imports MockServerLegacyNames instead of MockServer.
@Suite("Old names")
struct LegacyNamesTests {
    // Deprecated itself, so that its uses of the deprecated names do not warn.
    @available(*, deprecated, message: "uses the deprecated names on purpose")
    @Test("each old name is the renamed type, and code using it compiles")
    func oldNamesAreTheNewTypes() throws {
        #expect(SocketAddress.self == NetworkAddress.self)
        #expect(SocketError.self == SocketCallError.self)
        #expect(HTTPHeaders.self == HTTPHeaderFields.self)
        #expect(TLSConfiguration.self == TLSSettings.self)
        #expect(JSONValue.self == JSONNode.self)
        let headers: HTTPHeaders = ["Content-Type": "text/plain"]
        #expect(headers["content-type"] == "text/plain")
        let address = try SocketAddress(host: "127.0.0.1", port: 8080)
        #expect(address.description == "127.0.0.1:8080")
        let responder: any HTTPResponder = NoReply()
        #expect(responder is NoReply)
    }
}
