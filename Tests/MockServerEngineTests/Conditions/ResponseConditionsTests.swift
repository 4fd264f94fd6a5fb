import Foundation
import Testing
import TestSupport
import MockServer

/// Network conditions for one response (`withConditions`, an endpoint response's `"conditions"`):
/// its bytes go out under them, and the connection's own come back after it.
@Suite("Network conditions of one response", .offPool)
struct ResponseConditionsTests {
    /// curl's time to first byte (seconds) and connections opened, for each URL, one connection reused.
    private func timings(_ urls: [URL]) throws -> [(firstByte: Double, connects: Int)] {
        var arguments = ["-s", "-w", "%{time_starttransfer} %{num_connects}\\n"]
        for url in urls { arguments += ["-o", "/dev/null", url.absoluteString] }
        let result = try Tools.curl(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").map { line in
            let parts = line.split(separator: " ")
            return (Double(parts.first ?? "") ?? -1, Int(parts.last ?? "") ?? -1)
        }
    }

    @Test("a stub's own latency delays its response alone: the next request on the same connection is not delayed", .enabled(if: Tools.hasCurl))
    func stubLatency() throws {
        var slow = NetworkConditions()
        slow.toClient.latency = .seconds(1)
        let server = HTTPMockServer()
        server.stubRequest("GET", "/slow").andReturn(200).withBody("slow").withConditions(slow)
        server.stubRequest("GET", "/fast").andReturn(200).withBody("fast")
        try server.start()
        defer { server.stop() }
        let measured = try timings([server.url(for: "/slow"), server.url(for: "/fast"), server.url(for: "/slow")])
        try #require(measured.count == 3, "\(measured)")
        #expect(measured[0].firstByte >= 1, "the slow answer came after \(measured[0].firstByte) s")
        // The same connection (no new connect), its own conditions (none) back for the next answer.
        #expect(measured[1].connects == 0, "\(measured)")
        #expect(measured[1].firstByte < 1, "the fast answer came after \(measured[1].firstByte) s")
        #expect(measured[2].firstByte >= 1, "the second slow answer came after \(measured[2].firstByte) s")
    }

    @Test("an endpoint response's conditions: a data limit cuts that answer; the file's other endpoints answer whole", .enabled(if: Tools.hasCurl))
    func endpointDataLimit() throws {
        let server = HTTPMockServer()
        try server.addEndpoints(json: Array(#"""
            {"endpoints": [
                {"api": "get /cut", "response": {"body": "0123456789012345678901234567890123456789", "conditions": {"toClient": {"dataLimit": 50}}}},
                {"api": "get /whole", "response": {"body": "0123456789012345678901234567890123456789"}}
            ]}
            """#.utf8))
        try server.start()
        defer { server.stop() }
        // 50 bytes in all: the head alone is longer, so curl gets a cut answer.
        let cut = try Tools.curl(["-s", "-o", "/dev/null", server.url(for: "/cut").absoluteString])
        #expect(cut.status == 18 || cut.status == 56, "curl exited \(cut.status): \(cut.stderr)")
        #expect(try Tools.curl([server.url(for: "/whole").absoluteString]).stdout == "0123456789012345678901234567890123456789")
    }

    @Test("a bad response conditions object names its place, line and column")
    func refusal() {
        let json = #"{"endpoints": [{"api": "get /a", "response": {"conditions": {"toClient": {"latncy": 1}}}}]}"#
        do {
            try HTTPMockServer().addEndpoints(json: Array(json.utf8), file: "api.json")
            Issue.record("accepted: \(json)")
        } catch {
            let text = "\(error)"
            #expect(text.contains("api.json:1:") && text.contains("endpoints[0].response.conditions") && text.contains("latncy"), "\(text)")
        }
    }

    @Test("a line script's {\"conditions\"} holds from there on, replies after it included, until {\"conditions\": null}; a bad one names its place")
    func lineScript() throws {
        let script = try ResponseScript(json: #"""
            {"responses": {
                "slow": {"pattern": "^SLOW", "commands": [{"conditions": {"toClient": {"latency": 1}}}, "slow\r\n"]},
                "fast": {"pattern": "^FAST", "commands": [{"conditions": null}, "fast\r\n"]},
                "echo": {"pattern": "^ECHO", "commands": ["echo\r\n"]}
            }}
            """#)
        let server = MockServer(responder: try PatternResponder(script: script))
        try server.start()
        defer { server.stop() }
        let client = try TestClient(port: server.port, timeout: 30)
        let clock = ContinuousClock()
        func roundTrip(_ line: String) throws -> (String, Duration) {
            let started = clock.now
            try client.send(line + "\r\n")
            return (try client.readLine(), clock.now - started)
        }
        let slow = try roundTrip("SLOW")
        let conditioned = try roundTrip("ECHO")
        let lifted = try roundTrip("FAST")
        let after = try roundTrip("ECHO")
        #expect(slow.0 == "slow" && conditioned.0 == "echo" && lifted.0 == "fast" && after.0 == "echo")
        #expect(slow.1 >= .seconds(1) && conditioned.1 >= .seconds(1), "\(slow.1), \(conditioned.1)")
        #expect(lifted.1 < .seconds(1) && after.1 < .seconds(1), "\(lifted.1), \(after.1)")

        #expect {
            try ResponseScript(json: #"{"responses": {"r": {"pattern": "x", "commands": [{"conditions": {"toClient": {"latncy": 1}}}]}}}"#)
        } throws: { error in
            "\(error)".contains("responses.r.commands[0].conditions") && "\(error)".contains("latncy")
        }
    }
}
