import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import Testing

@Test func aSlowEndpoint() async throws {
    var slow = NetworkConditions()
    slow.toClient.latency = .milliseconds(300)
    let api = HTTPMockServer()
    api.stubRequest("GET", "/report").andReturn(200).withBody("done").withConditions(slow)   // this answer only
    api.stubRequest("GET", "/status").andReturn(200).withBody("up")
    try await api.start()
    defer { api.stop() }

    let started = ContinuousClock.now
    let (report, _) = try await URLSession.shared.data(from: api.url(for: "/report"))
    #expect(report == Data("done".utf8))
    #expect(ContinuousClock.now - started >= .milliseconds(300))
    let (status, _) = try await URLSession.shared.data(from: api.url(for: "/status"))   // not delayed
    #expect(status == Data("up".utf8))
}
