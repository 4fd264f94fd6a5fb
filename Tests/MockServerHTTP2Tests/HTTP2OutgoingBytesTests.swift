@testable import MockServerHTTP2
import Testing
import TestSupport

/// A stream's bytes waiting to go: held as the pieces they came in, shared with their owner (a
/// response's body is never copied whole), taken a slice at a time, whatever the slices' sizes.
@Suite("HTTP/2 outgoing bytes", .cpuBound)
struct HTTP2OutgoingBytesTests {
    /// The address of an array's storage.
    private static func storage(_ bytes: [UInt8]) -> UnsafeRawPointer? {
        bytes.withUnsafeBytes { $0.baseAddress }
    }

    private static func storage(_ bytes: ArraySlice<UInt8>) -> UnsafeRawPointer? {
        bytes.withUnsafeBytes { $0.baseAddress }
    }

    /// Takes everything, `size` bytes at a time: the bytes in order, and the pieces that finished.
    private static func drain(_ outgoing: inout HTTP2OutgoingBytes, by size: Int) -> (bytes: [UInt8], finished: [[UInt8]]) {
        var bytes: [UInt8] = []
        var finished: [[UInt8]] = []
        while !outgoing.isEmpty {
            let next = outgoing.next(atMost: size)
            #expect(!next.isEmpty && next.count <= size)
            bytes += next
            outgoing.removeFirst(next.count) { finished.append($0) }
        }
        return (bytes, finished)
    }

    @Test("a large body is held as its own storage: the slices sent and the piece recorded share it")
    func sharedBody() {
        let body = [UInt8](repeating: 7, count: 1 << 20)
        var outgoing = HTTP2OutgoingBytes()
        outgoing.append(body)
        #expect(outgoing.count == body.count)
        let first = outgoing.next(atMost: 16_384)
        #expect(Self.storage(first) == Self.storage(body), "the first slice is the body's own bytes")
        outgoing.removeFirst(first.count) { _ in Issue.record("the piece has not all gone") }
        #expect(Self.storage(outgoing.next(atMost: 10)) == Self.storage(body).map { $0 + 16_384 })
        var finished: [[UInt8]] = []
        while !outgoing.isEmpty {
            let next = outgoing.next(atMost: 100_000)
            outgoing.removeFirst(next.count) { finished.append($0) }
        }
        #expect(finished.count == 1)
        #expect(finished.first.map(Self.storage) == Self.storage(body), "the piece recorded is the body, not a copy")
    }

    @Test("pieces of every size, taken in slices of every size: the same bytes in order, each piece finished once",
          arguments: [1, 7, 16_384, 100_000, Int.max])
    func pieces(slice: Int) {
        let sizes = [3, 40_000, 1, 16_383, 16_384, 70_000, 5, 5, 5, 20_000]
        let pieces = sizes.enumerated().map { index, size in [UInt8](repeating: UInt8(index), count: size) }
        var outgoing = HTTP2OutgoingBytes()
        for piece in pieces { outgoing.append(piece) }
        #expect(outgoing.count == sizes.reduce(0, +))
        let (bytes, finished) = Self.drain(&outgoing, by: slice)
        #expect(bytes == pieces.flatMap { $0 })
        #expect(finished.flatMap { $0 } == bytes, "every byte recorded once, in order")
        #expect(outgoing.count == 0 && outgoing.isEmpty)
    }

    @Test("small sends are joined into one piece (one entry in the transcript); a large one stays its own")
    func joining() {
        var outgoing = HTTP2OutgoingBytes()
        for byte in UInt8(0)..<10 { outgoing.append([byte, byte]) }
        let large = [UInt8](repeating: 9, count: 20_000)
        outgoing.append(large)
        outgoing.append([1])
        let (bytes, finished) = Self.drain(&outgoing, by: .max)
        #expect(bytes.count == 20 + 20_000 + 1)
        #expect(finished.map(\.count) == [20, 20_000, 1])
        #expect(Self.storage(finished[1]) == Self.storage(large))
    }

    @Test("isLast: whether the next slice of that size ends what waits")
    func isLast() {
        var outgoing = HTTP2OutgoingBytes()
        outgoing.append([UInt8](repeating: 1, count: 20_000))
        #expect(outgoing.isLast(atMost: 20_000) && !outgoing.isLast(atMost: 19_999))
        outgoing.append([UInt8](repeating: 2, count: 20_000))
        #expect(!outgoing.isLast(atMost: .max), "a second piece waits")
        outgoing.removeFirst(20_000) { _ in }
        #expect(outgoing.isLast(atMost: .max))
    }

    @Test("removeAll: everything goes; the part of a piece that went is given back for the transcript")
    func removeAll() {
        var outgoing = HTTP2OutgoingBytes()
        #expect(outgoing.removeAll() == nil)
        outgoing.append(Array(0..<100))
        outgoing.append([UInt8](repeating: 1, count: 20_000))
        outgoing.removeFirst(30) { _ in Issue.record("not finished") }
        #expect(outgoing.removeAll().map(Array.init) == Array(0..<30))
        #expect(outgoing.isEmpty && outgoing.count == 0 && outgoing.next(atMost: 10).isEmpty)
        outgoing.append([4, 5])
        #expect(Self.drain(&outgoing, by: 1).bytes == [4, 5], "usable again")
    }

    @Test("appends between sends: a piece partly gone takes a small send after it; order holds")
    func appendWhileSending() {
        var outgoing = HTTP2OutgoingBytes()
        outgoing.append([1, 2, 3, 4])
        outgoing.removeFirst(2) { _ in Issue.record("not finished") }
        outgoing.append([5, 6])
        var finished: [[UInt8]] = []
        outgoing.removeFirst(outgoing.next(atMost: .max).count) { finished.append($0) }
        #expect(finished == [[1, 2, 3, 4, 5, 6]], "the piece recorded whole once it went")
        #expect(outgoing.isEmpty)
    }
}
