import Foundation
import MockServer

/// Starts a server on port 0 answering with `entries`.
func startServer(_ entries: [ResponseEntry], fallback: ResponseEntry? = nil,
                 configuration: MockServer.Configuration = .init()) throws -> MockServer {
    let server = MockServer(responder: PatternResponder(entries, fallback: fallback), configuration: configuration)
    try server.start()
    return server
}

/// A response built in tests, where the pattern is known to compile.
func entry(_ name: String, _ pattern: String, _ commands: ScriptCommand...) -> ResponseEntry {
    try! ResponseEntry(name, pattern: pattern, commands: commands)
}

extension Transcript.Event {
    var isClosed: Bool { if case .closed = self { true } else { false } }
}

/// Starts a server on a port outside this system's ephemeral range (read from
/// /proc/sys/net/ipv4/ip_local_port_range where there is one: a machine may hand out more than
/// Linux's default 32768–60999; macOS hands out 49152–65535), so that no port-0 bind and no
/// outgoing connection elsewhere in the test run can take the port while a test frees it and binds
/// it again. Taken ports are skipped.
func startServerOnFixedPort(_ entries: [ResponseEntry]) throws -> MockServer {
    let ports = portsOutsideEphemeralRange()
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<200 {
        let port = UInt16(ports.randomElement(using: &generator)!)
        let server = MockServer(responder: PatternResponder(entries), port: port)
        do {
            try server.start()
            return server
        } catch let error as SocketCallError where error.code == EADDRINUSE {
            continue
        }
    }
    throw SocketCallError(call: "bind", address: "127.0.0.1:\(ports.lowerBound)-\(ports.upperBound)", code: EADDRINUSE)
}

/// The larger stretch of ports from 10000 to 65535 that the system's ephemeral range leaves out
/// (10000–32767 with Linux's default range).
func portsOutsideEphemeralRange() -> ClosedRange<Int> {
    var ephemeral = 32_768...60_999
    #if os(Linux)
    if let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8) {
        let bounds = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { Int($0) }
        if bounds.count == 2, bounds[0] <= bounds[1] { ephemeral = bounds[0]...bounds[1] }
    }
    #else
    ephemeral = 49_152...65_535
    #endif
    let below = 10_000...max(10_000, ephemeral.lowerBound - 1)
    let above = min(65_535, ephemeral.upperBound + 1)...65_535
    return below.count >= above.count ? below : above
}
