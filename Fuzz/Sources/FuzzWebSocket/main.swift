// libFuzzer target: a client's WebSocket bytes, through the frame parser and the message assembler
// (the two pure stages the WebSocket driver runs every read through).
//
// The first byte picks the limits and how the rest is cut into reads: bit 0 whether frames must be
// masked (a server reading a client) or not (a client reading a server); bits 1-2 the largest
// payload and message (125, 1024, 65536 or Int.max, so that 64-bit lengths near 2^63 meet no
// smaller limit first); the upper bits and the next bytes the sizes of the reads. Properties checked:
// - no crash, whatever the bytes;
// - the frames, the events they make and the error that stops them (close code and reason) are the
//   same whether the bytes come in one read or in many;
// - every frame read, encoded again (masked with the mask of the input, or unmasked), reads back as
//   the same frame;
// - an error's close code is one a close frame may carry, and its reason fits a close frame.
import MockServerWebSocket
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's driver: parses its options from the command line and calls `test` with each input.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                     _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// What the parser and the assembler made of a byte stream.
struct Outcome: Equatable {
    var frames: [WebSocketFrame] = []
    var events: [WebSocketEvent] = []
    var error: WebSocketProtocolError?
}

/// The limits a selector byte picks.
struct Limits {
    let requiresMask: Bool
    let maximum: Int

    init(_ selector: UInt8) {
        requiresMask = selector & 1 == 0
        maximum = [125, 1024, 65536, Int.max][Int(selector >> 1) & 3]
    }
}

func run(_ bytes: ArraySlice<UInt8>, limits: Limits, cuts: [Int]) -> Outcome {
    var parser = WebSocketFrameParser(maximumPayload: limits.maximum, requiresMask: limits.requiresMask)
    var assembler = WebSocketMessageAssembler(maximumMessageLength: limits.maximum)
    var outcome = Outcome()
    var offset = bytes.startIndex
    var cut = 0
    do throws(WebSocketProtocolError) {
        while offset < bytes.endIndex {
            let size = max(1, cuts.isEmpty ? bytes.count : cuts[cut % cuts.count])
            cut += 1
            let end = min(offset + size, bytes.endIndex)
            parser.append(bytes[offset..<end])
            offset = end
            while let frame = try parser.next() {
                outcome.frames.append(frame)
                if let event = try assembler.take(frame) { outcome.events.append(event) }
            }
        }
    } catch {
        outcome.error = error
    }
    return outcome
}

/// The mask of the frame that starts at `offset` of `bytes`, when it has one (and the bytes to hold it).
func mask(ofFrameAt offset: Int, in bytes: ArraySlice<UInt8>) -> [UInt8]? {
    guard offset + 2 <= bytes.endIndex, bytes[offset + 1] & 0x80 != 0 else { return nil }
    let lengthBytes = [0, 2, 8][bytes[offset + 1] & 0x7F == 126 ? 1 : bytes[offset + 1] & 0x7F == 127 ? 2 : 0]
    let maskStart = offset + 2 + lengthBytes
    guard maskStart + 4 <= bytes.endIndex else { return nil }
    return Array(bytes[maskStart..<maskStart + 4])
}

func fuzzWebSocket(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let selector = input[0]
    let bytes = input[1...]
    let limits = Limits(selector)
    let cuts = [Int(selector >> 3) + 1] + bytes.prefix(8).map { Int($0 % 13) + 1 }
    let whole = run(bytes, limits: limits, cuts: [])
    let split = run(bytes, limits: limits, cuts: cuts)
    precondition(whole == split, "WebSocket reading depends on how the bytes were read: \(whole) vs \(split)")
    if let error = whole.error {
        precondition(error.code.isAllowedOnWire, "an error's close code \(error.code) may not be sent: \(error)")
        precondition(!error.reason.isEmpty, "an error without a reason: \(error.code)")
    }
    // Each frame, encoded as its sender would, reads back unchanged.
    var offset = bytes.startIndex
    for frame in whole.frames {
        let encoded = frame.encoded(mask: mask(ofFrameAt: offset, in: bytes))
        var parser = WebSocketFrameParser(maximumPayload: limits.maximum, requiresMask: limits.requiresMask)
        parser.append(encoded)
        let again: WebSocketFrame?
        do {
            again = try parser.next()
        } catch {
            preconditionFailure("a frame read does not read again: \(frame): \(error)")
        }
        precondition(again == frame && parser.bufferedCount == 0, "a frame does not read back as itself: \(frame) vs \(String(describing: again))")
        // Frames of the input are contiguous: the next starts after this one's bytes, as the input spelled its length.
        offset += frameLength(at: offset, in: bytes)
    }
    return 0
}

/// How many bytes the (whole) frame at `offset` takes in `bytes`.
func frameLength(at offset: Int, in bytes: ArraySlice<UInt8>) -> Int {
    let second = bytes[offset + 1]
    var header = 2
    var length = Int(second & 0x7F)
    if length == 126 {
        length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        header = 4
    } else if length == 127 {
        length = bytes[(offset + 2)..<(offset + 10)].reduce(0) { $0 << 8 | Int($1) }
        header = 10
    }
    if second & 0x80 != 0 { header += 4 }
    return header + length
}

// libFuzzer's own `main` is not used: SwiftPM makes this file the entry point, and it hands control to
// libFuzzer's driver with the function above as the target.
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argc, &argv, fuzzWebSocket))
