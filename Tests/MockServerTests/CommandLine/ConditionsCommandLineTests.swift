import Foundation
import Testing
import TestSupport
import MockServer

/// `mockserver --latency`, `--jitter` and `--bandwidth`, and the control API's `/conditions`, with
/// real clients.
@Suite("Network conditions from the command line and the control API", .offPool)
struct ConditionsCommandLineTests {
    @Test("--latency delays what ftplib reads; --bandwidth slows curl's download; bad values exit 64", .enabled(if: Tools.hasPython && Tools.hasCurl))
    func options() throws {
        let slow = try RunningCommand(["--latency", "0.2"])
        defer { _ = slow.terminate() }
        let (port, _) = try #require(slow.ports, "\(slow.firstLine)")
        let result = try Tools.python("""
            import ftplib, time
            f = ftplib.FTP()
            f.connect("127.0.0.1", \(port), timeout=20)
            f.login("anonymous", "x")
            start = time.monotonic()
            f.voidcmd("NOOP")
            print(round(time.monotonic() - start, 3))
            f.quit()
            """)
        let noop = try #require(Double(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(result.stdout)\(result.stderr)")
        #expect(noop >= 0.2 && noop < ConditionTiming.slowest(0.2), "NOOP took \(noop) s")

        let folder = try Tools.temporaryDirectory()
        let data = folder.appendingPathComponent("data.bin")
        try Tools.randomBytes(40_000, seed: 2).write(to: data)
        let throttled = try RunningCommand(["--bandwidth", "50000", "--data", data.path])
        defer { _ = throttled.terminate() }
        let (_, dataPort) = try #require(throttled.ports, "\(throttled.firstLine)")
        // The shared data port sends the data as soon as a client connects: 40,000 bytes at 50,000 a second.
        let download = try Tools.curl(["-o", "/dev/null", "-w", "%{size_download} %{time_total}", "telnet://127.0.0.1:\(dataPort)"])
        let fields = download.stdout.split(separator: " ")
        #expect(fields.first == "40000", "\(download.stdout)\(download.stderr)")
        let seconds = try #require(fields.last.flatMap { Double($0) })
        #expect(seconds > 0.64 && seconds < ConditionTiming.slowest(0.8), "the download took \(seconds) s")

        for (arguments, message) in [(["--latency", "soon"], "--latency takes seconds from 0 to 3600, not \"soon\""),
                                     (["--bandwidth", "0"], "--bandwidth takes a number of bytes per second above 0, not \"0\"")] {
            let refused = try Tools.run(Tools.mockserver.path, arguments)
            #expect(refused.status == 64)
            #expect(refused.stderr.contains(message), "\(refused.stderr)")
        }
    }

    @Test("PUT /conditions changes new connections; errors name the key; DELETE removes them", .enabled(if: Tools.hasCurl))
    func controlAPI() throws {
        let folder = try Tools.temporaryDirectory()
        let data = folder.appendingPathComponent("data.bin")
        try Tools.randomBytes(5_000, seed: 4).write(to: data)
        let command = try RunningCommand(["--admin", "--data", data.path])
        defer { _ = command.terminate() }
        let (_, dataPort) = try #require(command.ports, "\(command.firstLine)")
        let admin = try #require(command.nextLine().split(separator: " ").last.map(String.init))
        let bad = try Tools.curl(["-w", " %{http_code}", "-X", "PUT", "-H", "Content-Type: application/json", "-d", #"{"toClient": {"latncy": 1}}"#, admin + "conditions"])
        #expect(bad.stdout.hasPrefix(#"{"error":"unknown key \"toClient.latncy\""#) && bad.stdout.hasSuffix(" 400"), "\(bad.stdout)")
        // Numbers at the integer and floating-point edges are refused naming the field, none trapping
        // in a Duration or Int conversion.
        // A number past a Double's range is refused by the JSON reader, at its place.
        let infinite = try Tools.curl(["-w", " %{http_code}", "-X", "PUT", "-H", "Content-Type: application/json", "-d", #"{"toClient": {"latency": 1e400}}"#, admin + "conditions"])
        #expect(infinite.stdout == #"{"error":"the body is not JSON: the number is out of range (at 1:26)"}"# + "\n 400", "\(infinite.stdout)")
        for (body, field) in [(#"{"toClient": {"latency": 1e300}}"#, "toClient.latency must be seconds"),
                              (#"{"toClient": {"latency": -1e-300}}"#, "toClient.latency must be seconds"),
                              (#"{"timeout": 9223372036854775808}"#, "timeout must be seconds"),
                              (#"{"toServer": {"bytesPerSecond": 99999999999999999999}}"#, "toServer.bytesPerSecond must be a whole number"),
                              (#"{"toServer": {"bytesPerSecond": 2147483648}}"#, "toServer.bytesPerSecond must be a whole number"),
                              (#"{"toServer": {"bytesPerSecond": -1}}"#, "toServer.bytesPerSecond must be a whole number"),
                              (#"{"toClient": {"sliceSize": 1.5}}"#, "toClient.sliceSize must be a whole number")] {
            let refused = try Tools.curl(["-w", " %{http_code}", "-X", "PUT", "-H", "Content-Type: application/json", "-d", body, admin + "conditions"])
            #expect(refused.stdout.hasPrefix(#"{"error":""# + field) && refused.stdout.hasSuffix(" 400"), "\(body): \(refused.stdout)")
        }
        let set = try Tools.curl(["-X", "PUT", "-H", "Content-Type: application/json", "-d", #"{"toClient": {"dataLimit": 1000}}"#, admin + "conditions"])
        #expect(set.stdout.contains(#""dataLimit":1000"#), "\(set.stdout)")
        let cut = try Tools.curl(["-o", "/dev/null", "-w", "%{size_download}", "telnet://127.0.0.1:\(dataPort)"])
        #expect(cut.stdout == "1000", "\(cut.stdout)\(cut.stderr)")
        _ = try Tools.curl(["-X", "DELETE", admin + "conditions"])
        #expect(try Tools.curl([admin + "conditions"]).stdout == "{\"conditions\":{}}\n")
        let whole = try Tools.curl(["-o", "/dev/null", "-w", "%{size_download}", "telnet://127.0.0.1:\(dataPort)"])
        #expect(whole.stdout == "5000", "\(whole.stdout)\(whole.stderr)")
    }
}
