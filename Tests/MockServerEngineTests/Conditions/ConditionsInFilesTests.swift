import Foundation
import Testing
import TestSupport
import MockServer

/// Network conditions written in a response file or an endpoints file (`"conditions"`, the control
/// API's spelling), with real clients.
@Suite("Network conditions from response and endpoints files", .offPool)
struct ConditionsInFilesTests {
    static let script = """
        {"scheme": "http",
         "conditions": {"toClient": {"latency": 0.15, "dataLimit": 60}, "probability": 1},
         "responses": {"any": {"pattern": "^GET", "commands": [{"response": {"status": "200 OK", "body": "0123456789012345678901234567890123456789"}}]}}}
        """

    @Test("a response file's conditions are read as the control API reads them; a bad one names its key, line and column")
    func decoding() throws {
        let script = try ResponseScript(json: Self.script)
        let conditions = try #require(script.conditions)
        #expect(conditions.toClient.latency == .milliseconds(150))
        #expect(conditions.toClient.dataLimit == 60)
        #expect(conditions.toServer.isNeutral)
        #expect(try ResponseScript(json: #"{"responses": {}}"#).conditions == nil)
        let bad = #"{"conditions": {"toClient": {"latncy": 1}},"# + "\n" + #" "responses": {}}"#
        #expect {
            try ResponseScript(json: bad)
        } throws: { error in
            let text = "\(error)"
            return text.contains("1:30") && text.contains("unknown key \"toClient.latncy\"") && text.contains("conditions")
        }
        #expect(throws: ResponseFileError.self) { try ResponseScript(json: #"{"conditions": {"probability": 2}, "responses": {}}"#) }
    }

    @Test("a script's conditions slow and cut what curl reads; the server's configuration wins over them", .enabled(if: Tools.hasCurl))
    func fromScript() throws {
        let server = try MockServer(script: ResponseScript(json: Self.script))
        try server.start()
        defer { server.stop() }
        // 60 bytes in all: the head alone is longer, so curl gets a cut answer (exit 18), 0.15 s late.
        let cut = try Tools.curl(["-s", "-o", "/dev/null", "-w", "%{time_starttransfer}", server.url(for: "/a").absoluteString])
        #expect(cut.status == 18 || cut.status == 56, "curl exited \(cut.status): \(cut.stderr)")
        let firstByte = try #require(Double(cut.stdout), "\(cut.stdout)")
        #expect(firstByte >= 0.15, "the first byte came after \(firstByte) s")

        var configuration = MockServer.Configuration()
        configuration.conditions = NetworkConditions()
        let plain = try MockServer(script: ResponseScript(json: Self.script), configuration: configuration)
        try plain.start()
        defer { plain.stop() }
        #expect(try Tools.curl([plain.url(for: "/a").absoluteString]).stdout == "0123456789012345678901234567890123456789")
    }

    @Test("an endpoints file's conditions become the stub server's, unless it has some", .enabled(if: Tools.hasCurl))
    func fromEndpoints() throws {
        let file = Array(#"""
            {"conditions": {"toClient": {"dataLimit": 50}},
             "endpoints": [{"api": "get /long", "response": {"body": "0123456789012345678901234567890123456789"}}]}
            """#.utf8)
        let server = HTTPMockServer()
        try server.addEndpoints(json: file)
        try server.start()
        defer { server.stop() }
        #expect(server.server.networkConditions?.toClient.dataLimit == 50)
        let cut = try Tools.curl(["-s", "-o", "/dev/null", server.url(for: "/long").absoluteString])
        #expect(cut.status == 18 || cut.status == 56, "curl exited \(cut.status): \(cut.stderr)")

        var configuration = MockServer.Configuration()
        configuration.conditions = NetworkConditions()
        let configured = HTTPMockServer(configuration: configuration)
        try configured.addEndpoints(json: file)
        try configured.start()
        defer { configured.stop() }
        #expect(try Tools.curl([configured.url(for: "/long").absoluteString]).stdout == "0123456789012345678901234567890123456789")

        // A direction at probability 0 is never drawn: the download is whole.
        let spared = HTTPMockServer()
        try spared.addEndpoints(json: Array(String(decoding: file, as: UTF8.self).replacingOccurrences(of: #""dataLimit": 50"#, with: #""dataLimit": 50, "probability": 0"#).utf8))
        try spared.start()
        defer { spared.stop() }
        #expect(spared.server.networkConditions?.toClient.probability == 0)
        #expect(try Tools.curl([spared.url(for: "/long").absoluteString]).stdout == "0123456789012345678901234567890123456789")
    }
}
