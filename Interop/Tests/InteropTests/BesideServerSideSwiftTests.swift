import AsyncHTTPClient
import Foundation
import Hummingbird
import MockServerTesting
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Testing

// Every name below is written unqualified: theirs (HTTPHeaders, SocketAddress, TLSConfiguration,
// HTTPClient, Router, Application, ByteBuffer) and ours (HTTPHeaderFields, NetworkAddress, TLSSettings,
// HTTPMockServer, HTTPMockResponder). A name both sides declared would be "ambiguous" here.

@Test(.httpMockServer { server in
    server.stubRequest("GET", "/v1/me").andReturn(200).withJSON(["name": "Ada"])
})
func asyncHTTPClientAgainstTheMock() async throws {
    let server = try HTTPMockServer.current
    let ours: HTTPHeaderFields = ["Accept": "application/json"]
    var theirs = HTTPHeaders()
    for field in ours { theirs.add(name: field.name, value: field.value) }
    var request = HTTPClientRequest(url: try server.url(for: "/v1/me").absoluteString)
    request.headers = theirs
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
    #expect(response.status == .ok)
    let body: ByteBuffer = try await response.body.collect(upTo: 1 << 20)
    #expect(String(buffer: body).contains("Ada"))
    #expect(server.hitCount("GET", "/v1/me") == 1)
}

@Test func bothSidesTypesSideBySide() throws {
    let address = try NetworkAddress(host: "127.0.0.1", port: 8080)
    let nioAddress = try SocketAddress(ipAddress: "127.0.0.1", port: 8080)
    #expect(address.description.contains("8080") && nioAddress.port == 8080)

    let settings = TLSSettings(identity: try .generated(), mode: .implicit)
    let clientTLS = TLSConfiguration.makeClientConfiguration()
    #expect(settings.mode == .implicit && clientTLS.certificateVerification == .fullVerification)

    let router = Router()
    router.get("/hello") { _, _ in "hello" }
    let application = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    _ = application

    let responder: (any HTTPMockResponder)? = nil
    #expect(responder == nil)
}
