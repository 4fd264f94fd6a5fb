import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import Testing

@Test func aSlowNetwork() async throws {
    var slow = NetworkConditions()
    slow.toClient.latency = .milliseconds(300)          // every answer a third of a second late
    slow.toClient.bytesPerSecond = 64 * 1024            // downloads at 64 KiB/s
    slow.toServer.bytesPerSecond = 16 * 1024            // uploads at 16 KiB/s
    var configuration = MockServer.Configuration()
    configuration.conditions = slow
    let api = HTTPMockServer(configuration: configuration)
    api.stubRequest("GET", "/quote").andReturn(200).withBody("42")
    try await api.start()
    defer { api.stop() }

    let started = ContinuousClock.now
    let (body, _) = try await URLSession.shared.data(from: api.url(for: "/quote"))
    #expect(body == Data("42".utf8))
    #expect(ContinuousClock.now - started >= .milliseconds(300))
    api.server.networkConditions = nil                  // connections opened from now on are fast
}
