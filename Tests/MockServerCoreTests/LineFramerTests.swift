import Testing
import TestSupport
import MockServerCore

@Suite("Line framing", .cpuBound)
struct LineFramerTests {
    /// Feeds `bytes` in chunks of `size` and collects every line, then what `finish()` gives.
    private func lines(of bytes: [UInt8], chunk size: Int, limit: Int = 1 << 20) throws -> [[UInt8]] {
        var framer = LineFramer(maximumLength: limit)
        var result: [[UInt8]] = []
        var offset = 0
        while offset < bytes.count {
            framer.append(bytes[offset..<min(offset + size, bytes.count)])
            offset += size
            while let line = try framer.next() { result.append(line) }
        }
        while let line = try framer.finish() { result.append(line) }
        return result
    }

    static let mixed: [UInt8] = Array("USER anonymous\r\nPASS x\nNOOP\r\n\r\n\nSTOR caf\u{E9}.txt\r\nlast".utf8) + [0xFF, 0xFE, 0x0A]
    static let expected: [[UInt8]] = [
        Array("USER anonymous".utf8), Array("PASS x".utf8), Array("NOOP".utf8), [], [],
        Array("STOR caf\u{E9}.txt".utf8), Array("last".utf8) + [0xFF, 0xFE],
    ]

    @Test("every chunk size from 1 to the whole input gives the same lines", arguments: 1...mixed.count)
    func everyChunkSize(size: Int) throws {
        #expect(try lines(of: Self.mixed, chunk: size) == Self.expected)
    }

    @Test("many lines in one append")
    func manyLinesInOneRead() throws {
        let input = Array(String(repeating: "NOOP\r\n", count: 1000).utf8)
        let result = try lines(of: input, chunk: input.count)
        #expect(result.count == 1000)
        #expect(result.allSatisfy { $0 == Array("NOOP".utf8) })
    }

    @Test("a CR not followed by LF stays in the line")
    func bareCarriageReturn() throws {
        #expect(try lines(of: Array("a\rb\r\n".utf8), chunk: 1) == [Array("a\rb".utf8)])
    }

    @Test("an unterminated last line is returned by finish")
    func unterminatedLastLine() throws {
        var framer = LineFramer()
        framer.append(Array("QUIT".utf8))
        #expect(try framer.next() == nil)
        #expect(try framer.finish() == Array("QUIT".utf8))
        #expect(try framer.finish() == nil)
    }

    @Test("a line exactly at the limit passes, with LF or CRLF, in any chunking", arguments: [1, 3, 7, 100])
    func lineAtLimit(size: Int) throws {
        let line = [UInt8](repeating: 0x41, count: 16)
        #expect(try lines(of: line + [0x0A], chunk: size, limit: 16) == [line])
        #expect(try lines(of: line + [0x0D, 0x0A], chunk: size, limit: 16) == [line])
    }

    @Test("a line one byte over the limit throws, terminated or not", arguments: [1, 5, 100])
    func lineOverLimit(size: Int) throws {
        let line = [UInt8](repeating: 0x41, count: 17)
        #expect(throws: FramingError.lineTooLong(limit: 16)) { try lines(of: line + [0x0A], chunk: size, limit: 16) }
        #expect(throws: FramingError.lineTooLong(limit: 16)) { try lines(of: line, chunk: size, limit: 16) }
    }

    @Test("a stream without newlines is rejected as soon as it passes the limit, not buffered")
    func endlessLine() throws {
        var framer = LineFramer(maximumLength: 1024)
        let chunk = [UInt8](repeating: 0x42, count: 1000)
        framer.append(chunk)
        #expect(try framer.next() == nil)
        framer.append(chunk)
        #expect(throws: FramingError.lineTooLong(limit: 1024)) { try framer.next() }
    }

    @Test("NUL bytes and invalid UTF-8 are kept byte for byte")
    func binaryBytes() throws {
        let raw: [UInt8] = [0x00, 0x80, 0xC3, 0x28, 0xFF, 0x00]
        #expect(try lines(of: raw + [0x0A], chunk: 2) == [raw])
        let input = InputUnit(bytes: raw)
        #expect(input.bytes == raw)
        #expect(!input.isValidUTF8)
        #expect(input.text.contains("\u{FFFD}"))
    }

    @Test("the buffer is compacted, so a long session of short lines does not grow it")
    func compaction() throws {
        var framer = LineFramer()
        for _ in 0..<100_000 {
            framer.append(Array("NOOP\r\n".utf8))
            #expect(try framer.next() != nil)
        }
        #expect(framer.bufferedCount == 0)
    }

    @Test("an idle framer holds no buffer: every line read was taken; a partial line keeps its bytes until its LF")
    func idleHoldsNoBuffer() throws {
        var framer = LineFramer()
        #expect(!framer.holdsStorage)
        framer.append(Array("NOOP\r\nPA".utf8))
        #expect(try framer.next() == Array("NOOP".utf8))
        #expect(try framer.next() == nil)
        #expect(framer.holdsStorage && framer.bufferedCount == 2)
        framer.append(Array("SV\r\n".utf8))
        #expect(try framer.next() == Array("PASV".utf8))
        #expect(framer.holdsStorage, "taken, but not yet asked for more")
        #expect(try framer.next() == nil)
        #expect(!framer.holdsStorage)
        #expect(try framer.finish() == nil)
        framer.append(Array("QUIT\n".utf8))
        #expect(try framer.next() == Array("QUIT".utf8))
    }
}
