// libFuzzer target: a client's HTTP/2 bytes, through the frame reader.
//
// The first byte picks the reader: bit 0 whether the client preface comes first, bits 1-2 the maximum
// frame size (16384, 100, 65535 or 16777215; 100 is below the RFC's floor, to meet the limit often);
// the upper bits and the next bytes the sizes of the reads. Properties checked:
// - no crash, whatever the bytes;
// - the frames and the errors (a stream error goes on to the next frame, a connection error stops)
//   are the same whether the bytes come in one read or in many;
// - every frame read, written again, reads back as the same frame;
// - the frames read, fed to a server connection (limited to 4 concurrent streams and a 256-byte
//   HPACK table), never trap it, its open streams stay within the limit, and the response it is
//   then asked for on each open stream fits the peer's frame size and windows.
import MockServerHTTP2
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's driver: parses its options from the command line and calls `test` with each input.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                     _ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// What the reader made of a byte stream.
struct Outcome: Equatable {
    var frames: [HTTP2Frame] = []
    var streamErrors: [HTTP2Error] = []
    var connectionError: HTTP2Error?
}

func run(_ bytes: ArraySlice<UInt8>, preface: Bool, maximumFrameSize: Int, cuts: [Int]) -> Outcome {
    var reader = HTTP2FrameReader(expectingPreface: preface, maximumFrameSize: maximumFrameSize)
    var outcome = Outcome()
    var offset = bytes.startIndex
    var cut = 0
    while offset < bytes.endIndex {
        let size = max(1, cuts.isEmpty ? bytes.count : cuts[cut % cuts.count])
        cut += 1
        let end = min(offset + size, bytes.endIndex)
        bytes[offset..<end].withUnsafeBytes { reader.append($0) }
        offset = end
        while true {
            do {
                guard let frame = try reader.nextFrame() else { break }
                outcome.frames.append(frame)
            } catch {
                guard case .stream = error.scope else {
                    outcome.connectionError = error
                    return outcome
                }
                outcome.streamErrors.append(error)
            }
        }
    }
    return outcome
}

enum HTTP2Fuzz {
    /// A frame's payload length, as written.
    static func payloadLength(_ frame: HTTP2Frame) -> Int {
        var bytes: [UInt8] = []
        HTTP2FrameWriter.write(frame, into: &bytes)
        return bytes.count - HTTP2FrameHeader.size
    }
}

func fuzzHTTP2Frames(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let selector = input[0]
    let bytes = input[1...]
    let preface = selector & 1 == 1
    let maximumFrameSize = [16_384, 100, 65_535, 16_777_215][Int(selector >> 1) & 3]
    let cuts = [Int(selector >> 3) + 1] + bytes.prefix(8).map { Int($0 % 13) + 1 }
    let whole = run(bytes, preface: preface, maximumFrameSize: maximumFrameSize, cuts: [])
    let split = run(bytes, preface: preface, maximumFrameSize: maximumFrameSize, cuts: cuts)
    precondition(whole == split, "frame reading depends on how the bytes were read: \(whole) vs \(split)")
    var settings = HTTP2Settings()
    settings.maxConcurrentStreams = 4
    settings.headerTableSize = 256
    var connection = HTTP2ServerConnection(settings: settings)
    _ = connection.start()
    for frame in whole.frames {
        let events: [HTTP2ServerConnection.Event]
        do {
            events = try connection.receive(frame)
        } catch {
            _ = connection.fail(error)
            break
        }
        precondition(connection.activeStreams <= 4, "\(connection.activeStreams) streams open past the limit of 4")
        for case let .headers(stream, _, _) in events where connection.state(of: stream)?.localMaySend == true {
            let window = connection.sendableBytes(on: stream)
            let frameSize = Int(connection.peerSettings.maxFrameSize)
            do {
                let head = try connection.sendHeaders([HPACKHeader(":status", "200")], on: stream, endStream: false)
                precondition(head.allSatisfy { HTTP2Fuzz.payloadLength($0) <= frameSize }, "a HEADERS frame past the peer's frame size")
            } catch {
                preconditionFailure("an open stream cannot send its headers: \(error)")
            }
            let body = connection.sendData([UInt8](repeating: 1, count: 70_000)[...], on: stream, endStream: true)
            precondition(body.sent <= max(0, window) && body.frames.allSatisfy { $0.flowControlledLength <= frameSize }, "DATA past a window or the frame size")
        }
    }
    for frame in whole.frames {
        var written: [UInt8] = []
        HTTP2FrameWriter.write(frame, into: &written)
        var reader = HTTP2FrameReader(expectingPreface: false, maximumFrameSize: 16_777_215)
        reader.append(written)
        do {
            let again = try reader.nextFrame()
            precondition(again == frame && reader.buffered == 0, "a frame does not read back as itself: \(frame) vs \(String(describing: again))")
        } catch {
            preconditionFailure("a frame read does not read again: \(frame): \(error)")
        }
    }
    return 0
}

// libFuzzer's own `main` is not used: SwiftPM makes this file the entry point, and it hands control to
// libFuzzer's driver with the function above as the target.
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(runFuzzerDriver(&argc, &argv, fuzzHTTP2Frames))
