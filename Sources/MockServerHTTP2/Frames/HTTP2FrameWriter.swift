/// Writes frames (RFC 9113 §4, §6) into an output buffer. It writes what it is given: the caller keeps
/// each frame within the peer's maximum frame size (`writeFieldBlock` splits a field block for it).
package enum HTTP2FrameWriter {
    /// The connection preface a client sends first (§3.4).
    package static func writeClientPreface(into output: inout [UInt8]) {
        output.append(contentsOf: HTTP2FrameReader.clientPreface)
    }

    /// Appends `frame`, its header and payload, to `output`.
    package static func write(_ frame: HTTP2Frame, into output: inout [UInt8]) {
        let headerAt = output.count
        // The header's place, filled in once the payload's length is known.
        output.append(contentsOf: repeatElement(0, count: HTTP2FrameHeader.size))
        var flags: HTTP2FrameFlags = []
        switch frame.payload {
        case let .data(bytes, endStream, padding):
            if endStream { flags.insert(.endStream) }
            writePadded(padding, flags: &flags, into: &output) { $0.append(contentsOf: bytes) }
        case let .headers(block, endStream, endHeaders, priority, padding):
            if endStream { flags.insert(.endStream) }
            if endHeaders { flags.insert(.endHeaders) }
            if priority != nil { flags.insert(.priority) }
            writePadded(padding, flags: &flags, into: &output) { output in
                priority?.write(into: &output)
                output.append(contentsOf: block)
            }
        case let .priority(priority):
            priority.write(into: &output)
        case let .rstStream(code):
            HTTP2Bytes.append(code.rawValue, to: &output)
        case let .settings(settings, ack):
            if ack { flags.insert(.ack) }
            for setting in settings {
                HTTP2Bytes.append(setting.identifier.rawValue, to: &output)
                HTTP2Bytes.append(setting.value, to: &output)
            }
        case let .ping(data, ack):
            if ack { flags.insert(.ack) }
            HTTP2Bytes.append(UInt32(truncatingIfNeeded: data >> 32), to: &output)
            HTTP2Bytes.append(UInt32(truncatingIfNeeded: data), to: &output)
        case let .goAway(lastStreamID, code, debugData):
            HTTP2Bytes.append(lastStreamID & 0x7FFF_FFFF, to: &output)
            HTTP2Bytes.append(code.rawValue, to: &output)
            output.append(contentsOf: debugData)
        case let .windowUpdate(increment):
            HTTP2Bytes.append(increment & 0x7FFF_FFFF, to: &output)
        case let .continuation(block, endHeaders):
            if endHeaders { flags.insert(.endHeaders) }
            output.append(contentsOf: block)
        case let .unknown(_, unknownFlags, length):
            flags = unknownFlags
            output.append(contentsOf: repeatElement(0, count: length))
        }
        HTTP2FrameHeader(length: output.count - headerAt - HTTP2FrameHeader.size, type: frame.type, flags: flags, streamID: frame.streamID)
            .write(into: &output, at: headerAt)
    }

    /// Appends a DATA frame carrying `bytes` (within the peer's maximum frame size): the one copy
    /// of a body's bytes that sending makes, from the response's own storage into the output.
    package static func writeData(_ bytes: ArraySlice<UInt8>, streamID: UInt32, endStream: Bool, into output: inout [UInt8]) {
        HTTP2FrameHeader(length: bytes.count, type: .data, flags: endStream ? .endStream : [], streamID: streamID).write(into: &output)
        output.append(contentsOf: bytes)
    }

    /// Appends a field block as a HEADERS frame and as many CONTINUATION frames as
    /// `maximumFrameSize` makes it need (§4.3, §6.10).
    package static func writeFieldBlock(_ block: [UInt8], streamID: UInt32, endStream: Bool, maximumFrameSize: Int, into output: inout [UInt8]) {
        for frame in fieldBlockFrames(block, streamID: streamID, endStream: endStream, maximumFrameSize: maximumFrameSize) {
            write(frame, into: &output)
        }
    }

    /// A field block as a HEADERS frame and the CONTINUATION frames `maximumFrameSize` makes it need.
    package static func fieldBlockFrames(_ block: [UInt8], streamID: UInt32, endStream: Bool, maximumFrameSize: Int) -> [HTTP2Frame] {
        var frames: [HTTP2Frame] = []
        var chunkStart = 0
        repeat {
            let chunkEnd = min(block.count, chunkStart + maximumFrameSize)
            // A block that fits one frame (the usual case) goes as it is, uncopied.
            let chunk = chunkStart == 0 && chunkEnd == block.count ? block : Array(block[chunkStart..<chunkEnd])
            let last = chunkEnd == block.count
            let payload: HTTP2Frame.Payload = chunkStart == 0
                ? .headers(block: chunk, endStream: endStream, endHeaders: last)
                : .continuation(block: chunk, endHeaders: last)
            frames.append(HTTP2Frame(streamID: streamID, payload))
            chunkStart = chunkEnd
        } while chunkStart < block.count
        return frames
    }

    /// Writes the pad length (when `padding` is set), the contents, then the padding's zeros.
    private static func writePadded(_ padding: Int?, flags: inout HTTP2FrameFlags, into output: inout [UInt8], contents: (inout [UInt8]) -> Void) {
        if let padding {
            flags.insert(.padded)
            output.append(UInt8(padding))
        }
        contents(&output)
        if let padding { output.append(contentsOf: repeatElement(0, count: padding)) }
    }
}
