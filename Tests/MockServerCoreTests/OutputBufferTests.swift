import Testing
import MockServerCore

/// A connection's output: bytes leave in order, small sends joined, whatever the writer takes at a
/// time, and nothing is held once they have all gone (an idle connection keeps no storage).
@Suite("Output buffer")
struct OutputBufferTests {
    /// Writes what `buffer` holds into `sink`, `step` bytes at most per call, refusing (`wouldBlock`)
    /// after `blockAfter` calls when given; returns how many calls took bytes.
    private func drain(_ buffer: inout OutputBuffer, step: Int, into sink: inout [UInt8], blockAfter calls: Int? = nil) -> Int {
        var made = 0
        _ = buffer.write { bytes in
            if let calls, made == calls { return .wouldBlock }
            made += 1
            let count = min(step, bytes.count)
            sink.append(contentsOf: bytes.prefix(count))
            return .written(count)
        }
        return made
    }

    @Test("sends leave in order, joined or not, whatever the writer takes at a time", arguments: [1, 3, 7, 16 * 1024, 1 << 20])
    func order(step: Int) {
        var buffer = OutputBuffer()
        let large = [UInt8](repeating: 0x42, count: 20_000)
        let parts: [[UInt8]] = [Array("head ".utf8), Array("small ".utf8), large, Array("tail".utf8), [], large]
        for part in parts { buffer.append(part) }
        #expect(buffer.count == parts.reduce(0) { $0 + $1.count })
        var sink: [UInt8] = []
        _ = drain(&buffer, step: step, into: &sink)
        #expect(sink == parts.flatMap { $0 })
        #expect(buffer.isEmpty)
        #expect(buffer.count == 0)
    }

    @Test("a full writer stops the write, and the rest follows later with sends queued meanwhile")
    func blockedThenResumed() {
        var buffer = OutputBuffer()
        buffer.append(Array("abcdef".utf8))
        var sink: [UInt8] = []
        #expect(drain(&buffer, step: 2, into: &sink, blockAfter: 1) == 1)
        #expect(sink == Array("ab".utf8))
        #expect(buffer.count == 4)
        buffer.append(Array("gh".utf8))
        buffer.append([UInt8](repeating: 0x69, count: 17_000))
        #expect(buffer.count == 4 + 2 + 17_000)
        _ = drain(&buffer, step: 5, into: &sink)
        #expect(sink == Array("abcdefgh".utf8) + [UInt8](repeating: 0x69, count: 17_000))
        #expect(buffer.isEmpty)
    }

    @Test("once everything is written, or forgotten, the buffer holds no storage", arguments: [1, 4096])
    func holdsNothingOnceWritten(step: Int) {
        var buffer = OutputBuffer()
        #expect(!buffer.holdsStorage)
        buffer.append(Array("HTTP/1.1 200 OK\r\n\r\n".utf8))
        buffer.append(Array("ok".utf8))
        buffer.append([UInt8](repeating: 0x61, count: 20_000))
        #expect(buffer.holdsStorage)
        var sink: [UInt8] = []
        _ = drain(&buffer, step: step, into: &sink)
        #expect(sink.count == 19 + 2 + 20_000)
        #expect(!buffer.holdsStorage)

        buffer.append(Array("again".utf8))
        buffer.append([UInt8](repeating: 0x62, count: 20_000))
        buffer.removeAll()
        #expect(buffer.isEmpty)
        #expect(!buffer.holdsStorage)
    }

    @Test("a failed write hands back its error and keeps what was not written")
    func failure() {
        var buffer = OutputBuffer()
        buffer.append(Array("abc".utf8))
        let error = SocketCallError(call: "write", code: 32)
        #expect(buffer.write { _ in .failed(error) } == error)
        #expect(buffer.count == 3)
    }
}
