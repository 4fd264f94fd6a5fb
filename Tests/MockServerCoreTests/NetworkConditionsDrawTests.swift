import Testing
import MockServerCore

/// What a new connection draws from its server's conditions (the connection's probability, then
/// each direction's), and the one JSON spelling of conditions.
@Suite("Network conditions: draws and JSON")
struct NetworkConditionsDrawTests {
    /// A generator with a fixed seed (SplitMix64), so that the counts below are the same every run.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func slowBothWays() -> NetworkConditions {
        var conditions = NetworkConditions()
        conditions.toClient.latency = .milliseconds(100)
        conditions.toServer.bytesPerSecond = 1000
        return conditions
    }

    @Test("at probability 1 everything is drawn; a direction at 0 is never; neutral conditions draw nothing")
    func certainties() {
        var random = Seeded(state: 1)
        let all = Self.slowBothWays()
        #expect(all.drawn(using: &random) == all)
        var noDownload = all
        noDownload.toClient.probability = 0
        let drawn = noDownload.drawn(using: &random)
        #expect(drawn?.toClient.isNeutral == true)
        #expect(drawn?.toServer.bytesPerSecond == 1000)
        var none = all
        none.toClient.probability = 0
        none.toServer.probability = 0
        #expect(none.drawn(using: &random) == nil)
        var never = all
        never.probability = 0
        #expect(never.drawn(using: &random) == nil)
        #expect(NetworkConditions().drawn(using: &random) == nil)
    }

    @Test("the connection's and each direction's probabilities are drawn apart")
    func independentDraws() {
        var conditions = Self.slowBothWays()
        conditions.probability = 0.5
        conditions.toClient.probability = 0.5
        var random = Seeded(state: 42)
        var connections = 0, downloads = 0, uploads = 0
        for _ in 0..<10_000 {
            guard let drawn = conditions.drawn(using: &random) else { continue }
            connections += 1
            if !drawn.toClient.isNeutral { downloads += 1 }
            if !drawn.toServer.isNeutral { uploads += 1 }
        }
        #expect((4_700...5_300).contains(connections), "\(connections) of 10,000 connections drew the conditions")
        #expect(uploads == connections, "every connection that drew them slows its uploads")
        #expect((connections * 45 / 100...connections * 55 / 100).contains(downloads), "\(downloads) of \(connections) slowed their downloads")
    }

    @Test("JSON: every key, a direction's probability, and errors that name the key and its place")
    func json() throws {
        let text = #"{"toClient": {"latency": 0.25, "jitter": 0.01, "bytesPerSecond": 64, "sliceSize": 8, "sliceDelay": 0.002, "dataLimit": 99, "probability": 0.3}, "toServer": {"bytesPerSecond": 16}, "slowClose": 1, "timeout": 30, "resetAfter": 5, "probability": 0.5}"#
        let conditions = try NetworkConditionsJSON.decode(try JSONReader.parse(Array(text.utf8)))
        #expect(conditions.toClient.latency == .milliseconds(250))
        #expect(conditions.toClient.jitter == .milliseconds(10))
        #expect(conditions.toClient.bytesPerSecond == 64)
        #expect(conditions.toClient.sliceSize == 8)
        #expect(conditions.toClient.sliceDelay == .milliseconds(2))
        #expect(conditions.toClient.dataLimit == 99)
        #expect(conditions.toClient.probability == 0.3)
        #expect(conditions.toServer.bytesPerSecond == 16 && conditions.toServer.probability == 1)
        #expect(conditions.slowClose == .seconds(1) && conditions.timeout == .seconds(30) && conditions.resetAfter == .seconds(5))
        #expect(conditions.probability == 0.5)
        let cases: [(String, String, String)] = [
            (#"{"toClient": {"probability": 1.5}}"#, "toClient.probability must be a number from 0 to 1", "1:30"),
            (#"{"toServer": {"dataLimit": 0}}"#, "toServer.dataLimit must be a whole number", "1:28"),
            (#"{"slowClose": -1}"#, "slowClose must be seconds from 0 to 86400", "1:15"),
            (#"{"toClient": 3}"#, "toClient must be an object", "1:14"),
            (#"{"latency": 1}"#, "unknown key \"latency\"", "1:2"),
            (#"[1]"#, "conditions must be an object", "1:1"),
            // The edges of Duration and Int conversions: refused before any conversion.
            (#"{"timeout": 86400.001}"#, "timeout must be seconds from 0 to 86400", "1:13"),
            (#"{"toClient": {"jitter": 1e300}}"#, "toClient.jitter must be seconds from 0 to 86400", "1:25"),
            (#"{"resetAfter": 9223372036854775807}"#, "resetAfter must be seconds from 0 to 86400", "1:16"),
            (#"{"toServer": {"dataLimit": 2147483648}}"#, "toServer.dataLimit must be a whole number from 1 to 2147483647", "1:28"),
            (#"{"toServer": {"sliceSize": 18446744073709551615}}"#, "toServer.sliceSize must be a whole number", "1:28"),
            (#"{"toServer": {"bytesPerSecond": -9223372036854775808}}"#, "toServer.bytesPerSecond must be a whole number", "1:33"),
        ]
        let edges = try NetworkConditionsJSON.decode(try JSONReader.parse(Array(#"{"timeout": 86400, "toServer": {"dataLimit": 2147483647, "latency": 0}}"#.utf8)))
        #expect(edges.timeout == .seconds(86400) && edges.toServer.dataLimit == 2_147_483_647 && edges.toServer.latency == .zero)
        for (json, message, location) in cases {
            #expect {
                try NetworkConditionsJSON.decode(try JSONReader.parse(Array(json.utf8)))
            } throws: { error in
                guard let problem = error as? NetworkConditionsJSON.Problem else { return false }
                return problem.message.hasPrefix(message) && "\(problem.location)" == location
            }
        }
    }
}
