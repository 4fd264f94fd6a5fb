import Foundation
import Testing
import TestSupport
@testable import MockServer
import MockServerResponses

/// Network conditions measured with real clients: throttled FTP downloads and uploads take the time
/// their bandwidth says, latency shows in round trips, slices split what a client reads, and the
/// limits, timeouts and resets end connections as they say.
@Suite("Network conditions", .serialized)
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
        #expect(download > 0.6 && download < 0.9, "download took \(download) s")
        #expect(upload > 0.6 && upload < 0.9, "upload took \(upload) s")
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
        #expect(times.allSatisfy { $0 >= 0.15 && $0 < 0.4 }, "banner and NOOP took \(times) s")

        let http = try MockServer(script: ResponseScript(json: """
            {"scheme": "http", "responses": {"any": {"pattern": "^GET ", "commands": [{"response": {"body": "hi"}}]}}}
            """), configuration: { var c = MockServer.Configuration(); c.conditions = conditions; return c }())
        try http.start()
        defer { http.stop() }
        let curl = try Tools.curl(["-o", "/dev/null", "-w", "%{time_starttransfer}", "http://127.0.0.1:\(http.port)/"])
        let firstByte = try #require(Double(curl.stdout), "\(curl.stdout)\(curl.stderr)")
        #expect(firstByte >= 0.15 && firstByte < 0.4, "first byte after \(firstByte) s")
    }

    @Test("slicing splits what a client reads into pieces of the slice's size", .enabled(if: Tools.hasPython))
    func slicing() throws {
        var conditions = NetworkConditions()
        conditions.toClient.sliceSize = 100
        conditions.toClient.sliceDelay = .milliseconds(5)
        let server = try MockServer(script: ResponseScript(json: #"""
            {"responses": {"big": {"pattern": "^go$", "commands": [{"hex": "\#(String(repeating: "41", count: 1000))"}, "«close»"]}}}
            """#), configuration: { var c = MockServer.Configuration(); c.conditions = conditions; return c }())
        try server.start()
        defer { server.stop() }
        let result = try Tools.python("""
            import socket
            s = socket.create_connection(("127.0.0.1", \(server.port)), timeout=20)
            s.sendall(b"go\\n")
            sizes = []
            while True:
                chunk = s.recv(65536)
                if not chunk: break
                sizes.append(len(chunk))
            print(sum(sizes), max(sizes), len(sizes))
            """)
        let numbers = result.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(numbers.count == 3, "\(result.stdout)\(result.stderr)")
        #expect(numbers[0] == 1000)
        #expect(numbers[1] <= 100, "a read of \(numbers[1]) bytes")
        #expect(numbers[2] >= 10)
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
