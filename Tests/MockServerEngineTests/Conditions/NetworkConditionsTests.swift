import Foundation
import Testing
import TestSupport
import MockServer
import MockServerResponses

/// Network conditions measured with real clients: throttled FTP downloads and uploads take the time
/// their bandwidth says, latency shows in round trips, slices split what a client reads, and the
/// limits, timeouts and resets end connections as they say.
// Serialized: these tests measure time (a throttled transfer within 20% of what its bandwidth
// says, round trips that show the latency); each has its own server, but two throttled transfers
// and their Python clients at once on two cores skew each other's clocks.
@Suite("Network conditions", .offPool, .serialized)
struct NetworkConditionsTests {
    private func ftp(_ conditions: NetworkConditions, bytes: Int) throws -> MockServer {
        var configuration = MockServer.Configuration()
        configuration.conditions = conditions
        let server = try MockServer(script: BundledResponses.script(named: "ftp"), configuration: configuration)
        server.data = Tools.randomBytes(bytes, seed: 3)
        try server.start()
        return server
    }

    @Test("a throttled FTP download and upload take the time their bandwidth says, within 20%", .enabled(if: Tools.hasPython))
    func throttledFTP() throws {
        var conditions = NetworkConditions()
        conditions.toClient.bytesPerSecond = 80_000
        conditions.toServer.bytesPerSecond = 80_000
        let server = try ftp(conditions, bytes: 60_000)
        defer { server.stop() }
        let result = try Tools.python("""
            import ftplib, io, time
            f = ftplib.FTP()
            f.connect("127.0.0.1", \(server.port), timeout=30)
            f.login("anonymous", "x")
            got = bytearray()
            start = time.monotonic()
            f.retrbinary("RETR file.bin", got.extend)
            download = time.monotonic() - start
            start = time.monotonic()
            f.storbinary("STOR up.bin", io.BytesIO(bytes(60000)))
            upload = time.monotonic() - start
            f.quit()
            print(len(got), round(download, 3), round(upload, 3))
            """)
        let fields = result.stdout.split(separator: " ").map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
        try #require(fields.count == 3, "\(result.stdout)\(result.stderr)")
        #expect(fields[0] == "60000")
        // 60,000 bytes at 80,000 bytes a second: 0.75 s each way.
        let download = try #require(Double(fields[1])), upload = try #require(Double(fields[2]))
        #expect(download > 0.6 && download < ConditionTiming.slowest(0.75), "download took \(download) s")
        #expect(upload > 0.6 && upload < ConditionTiming.slowest(0.75), "upload took \(upload) s")
        #expect(server.uploads.last?.data.count == 60_000)
    }

    @Test("added latency shows in curl's and ftplib's round trips", .enabled(if: Tools.hasPython && Tools.hasCurl))
    func latency() throws {
        var conditions = NetworkConditions()
        conditions.toClient.latency = .milliseconds(150)
        let server = try ftp(conditions, bytes: 10)
        defer { server.stop() }
        let result = try Tools.python("""
            import ftplib, time
            f = ftplib.FTP()
            start = time.monotonic()
            f.connect("127.0.0.1", \(server.port), timeout=20)
            banner = time.monotonic() - start
            f.login("anonymous", "x")
            start = time.monotonic()
            f.voidcmd("NOOP")
            noop = time.monotonic() - start
            f.quit()
            print(round(banner, 3), round(noop, 3))
            """)
        let times = result.stdout.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(times.count == 2, "\(result.stdout)\(result.stderr)")
        #expect(times.allSatisfy { $0 >= 0.15 && $0 < ConditionTiming.slowest(0.15) }, "banner and NOOP took \(times) s")

        let http = try MockServer(script: ResponseScript(json: """
            {"scheme": "http", "responses": {"any": {"pattern": "^GET ", "commands": [{"response": {"body": "hi"}}]}}}
            """), configuration: { var c = MockServer.Configuration(); c.conditions = conditions; return c }())
        try http.start()
        defer { http.stop() }
        let curl = try Tools.curl(["-o", "/dev/null", "-w", "%{time_starttransfer}", "http://127.0.0.1:\(http.port)/"])
        let firstByte = try #require(Double(curl.stdout), "\(curl.stdout)\(curl.stderr)")
        #expect(firstByte >= 0.15 && firstByte < ConditionTiming.slowest(0.15), "first byte after \(firstByte) s")
    }

    // What a client reads at once depends on when it is scheduled (two slices that arrived while it
    // waited for the CPU come out of one recv), so this test asserts only what slicing guarantees
    // whatever the scheduling: every read is whole slices, and the last slice cannot leave before
    // nine slice delays have passed since the request.
    @Test("slicing sends what a client reads in pieces of the slice's size, each after the slice delay", .enabled(if: Tools.hasPython))
    func slicing() throws {
        var conditions = NetworkConditions()
        conditions.toClient.sliceSize = 100
        conditions.toClient.sliceDelay = .milliseconds(20)
        let server = try MockServer(script: ResponseScript(json: #"""
            {"responses": {"big": {"pattern": "^go$", "commands": [{"hex": "\#(String(repeating: "41", count: 1000))"}, "«close»"]}}}
            """#), configuration: { var c = MockServer.Configuration(); c.conditions = conditions; return c }())
        try server.start()
        defer { server.stop() }
        let result = try Tools.python("""
            import socket, time
            s = socket.create_connection(("127.0.0.1", \(server.port)), timeout=20)
            start = time.monotonic()
            s.sendall(b"go\\n")
            sizes = []
            while True:
                chunk = s.recv(65536)
                if not chunk: break
                sizes.append(len(chunk))
            print(sum(sizes), int((time.monotonic() - start) * 1000), " ".join(map(str, sizes)))
            """)
        let numbers = result.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(numbers.count >= 3, "\(result.stdout)\(result.stderr)")
        #expect(numbers[0] == 1000)
        #expect(numbers[1] >= 180, "all 1,000 bytes came \(numbers[1]) ms after the request")
        let reads = numbers.dropFirst(2)
        #expect(reads.allSatisfy { $0 % 100 == 0 }, "reads of \(reads.map(String.init).joined(separator: ", ")) bytes")
    }

    @Test("a data limit cuts a download; resetAfter resets; timeout closes; a change applies to new connections only", .enabled(if: Tools.hasCurl && Tools.hasPython))
    func limits() throws {
        var limited = NetworkConditions()
        limited.toClient.dataLimit = 1000
        let server = try MockServer(script: ResponseScript(json: """
            {"scheme": "http", "responses": {"any": {"pattern": "^GET ", "commands": [{"response": {"body": "«data»"}}]}}}
            """), configuration: { var c = MockServer.Configuration(); c.conditions = limited; return c }())
        server.data = Tools.randomBytes(50_000, seed: 9)
        try server.start()
        defer { server.stop() }
        let cut = try Tools.curl(["-o", "/dev/null", "-w", "%{size_download}", "http://127.0.0.1:\(server.port)/"])
        #expect(cut.status == 18, "curl exit \(cut.status): \(cut.stderr)")
        #expect(Int(cut.stdout) ?? 0 < 1000)

        // Connections opened from now on are reset after 100 ms, whatever they do.
        var reset = NetworkConditions()
        reset.resetAfter = .milliseconds(100)
        server.networkConditions = reset
        var closing = NetworkConditions()
        closing.timeout = .milliseconds(100)
        let probe = """
            import socket
            s = socket.create_connection(("127.0.0.1", \(server.port)), timeout=20)
            try:
                print(repr(s.recv(10)))
            except ConnectionResetError:
                print("reset")
            """
        #expect(try Tools.python(probe).stdout == "reset\n")
        server.networkConditions = closing
        #expect(try Tools.python(probe).stdout == "b''\n")
        server.networkConditions = nil
        let whole = try Tools.curl(["-o", "/dev/null", "-w", "%{size_download}", "http://127.0.0.1:\(server.port)/"])
        #expect(whole.stdout == "50000", "\(whole.stdout)\(whole.stderr)")
    }
}
