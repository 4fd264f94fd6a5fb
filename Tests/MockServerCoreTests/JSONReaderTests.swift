import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import MockServerCore

/// The JSON reader on what a peer can send it (request bodies, the admin API's bodies): nesting
/// without end, long lines, and the places its errors name.
@Suite("JSON reader: nesting, long lines, locations", .cpuBound)
struct JSONReaderTests {
    private func failure(_ text: String, options: JSONReader.Options = .strict) -> JSONReader.Failure? {
        do {
            _ = try JSONReader.parse(Array(text.utf8), options: options)
            return nil
        } catch {
            return error
        }
    }

    @Test("nesting past 512 levels is refused with an error naming the limit, however deep (100,000 levels do not exhaust the stack)", arguments: [
        (String(repeating: "[", count: 100_000), "1:513"),
        (String(repeating: "{\"a\":", count: 100_000), "1:2561"),
        (String(repeating: "[", count: 513) + String(repeating: "]", count: 513), "1:513"),
    ])
    func deepNesting(text: String, location: String) {
        let error = failure(text)
        #expect(error?.message == "values nested deeper than 512 levels")
        #expect(error.map { "\($0.location)" } == location)
    }

    @Test("512 levels are read")
    func deepestAccepted() throws {
        var value = try JSONReader.parse(Array((String(repeating: "[", count: 512) + String(repeating: "]", count: 512)).utf8))
        var depth = 1
        while case .array(let elements) = value.kind, let first = elements.first {
            value = first
            depth += 1
        }
        #expect(depth == 512)
    }

    @Test("locations count characters on each line, after multibyte text, a BOM, and an error that backs up")
    func locations() throws {
        #expect(failure(#"["é", "ü", tru]"#).map { "\($0.location)" } == "1:12")
        #expect(failure("[\n  1,\n  x]").map { "\($0.location)" } == "3:3")
        #expect(failure("\u{FEFF}[1, 01]").map { "\($0.location)" } == "1:5")
        #expect(failure(#"{"é": 1, "b": 2, "é": 3}"#, options: .lenient).map { "\($0.location)" } == "1:18")
        #expect(failure("[\"a\\qb\"]").map { "\($0.location)" } == "1:4")
        let value = try JSONReader.parse(Array("[\"ééé\", 1,\n [true, \"x\"]]".utf8))
        guard case .array(let elements) = value.kind, case .array(let inner) = elements[2].kind else {
            Issue.record("not the arrays written: \(value.kind)")
            return
        }
        #expect(elements.map { "\($0.location)" } == ["1:2", "1:9", "2:2"])
        #expect(inner.map { "\($0.location)" } == ["2:3", "2:9"])
    }

    @Test("a line of 20,000 values is read in linear time: ten times the values take about ten times as long, not a hundred (it took seconds when every value counted its column from the line's start)")
    func longLine() throws {
        func line(_ count: Int) -> [UInt8] { Array(("[" + String(repeating: "1, ", count: count) + "\"last\"]").utf8) }
        // A ratio of this thread's own CPU time, the least of three of each: wall-clock time failed a
        // 2 s bound under AddressSanitizer, and a wall-clock ratio failed in a parallel run (the
        // thread waited for a core), while the CPU the parse takes scales both sides alike.
        func fastest(_ bytes: [UInt8]) throws -> Double {
            func cpuSeconds() -> Double {
                var time = timespec()
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
                return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
            }
            var best = Double.infinity
            for _ in 0..<3 {
                let start = cpuSeconds()
                _ = try JSONReader.parse(bytes)
                best = min(best, cpuSeconds() - start)
            }
            return best
        }
        let long = line(20_000)
        let value = try JSONReader.parse(long)
        guard case .array(let elements) = value.kind else {
            Issue.record("not an array")
            return
        }
        #expect(elements.count == 20_001)
        #expect("\(elements[20_000].location)" == "1:\(2 + 3 * 20_000)")
        let ratio = try fastest(long) / fastest(line(2_000))
        // Linear: about 10 (less with the fixed costs); quadratic: about 100.
        #expect(ratio < 35, "20,000 values took \(ratio) times as long as 2,000")
    }
}
