import Foundation

/// How a stored message travels in a POP3 multi-line answer (RFC 1939 §3): every line ends
/// CRLF (a bare LF in the stored bytes is sent as CRLF, as Dovecot does), a line that begins
/// with `.` gets another `.` before it, and the answer ends with a line holding only `.`.
package enum POP3DotStuffing {
    private static let cr: UInt8 = 0x0D, lf: UInt8 = 0x0A, dot: UInt8 = 0x2E

    /// The size POP3 reports for `raw`: its bytes with each bare LF counted as the CRLF it is
    /// sent as (no stuffing, no terminating line), Dovecot's "virtual size".
    package static func transmittedSize(of raw: Data) -> Int {
        raw.withUnsafeBytes { buffer -> Int in
            let bytes = buffer.assumingMemoryBound(to: UInt8.self)
            var size = bytes.count
            var index = 0
            while index < bytes.count {
                if bytes[index] == lf, index == 0 || bytes[index - 1] != cr { size += 1 }
                index += 1
            }
            return size
        }
    }

    /// Appends `raw` to `output` as a multi-line answer's body: CRLF line ends, dot-stuffed, a
    /// CRLF added if the message does not end with one, and then the terminating `.` line.
    ///
    /// - Parameters:
    ///   - raw: the stored message.
    ///   - bodyLines: for TOP, how many lines of the body to send after the header and the
    ///     empty line that ends it; nil for the whole message (RETR).
    ///   - output: where the bytes go; its capacity is reserved for the whole answer at once.
    package static func append(_ raw: Data, bodyLines: Int? = nil, to output: inout [UInt8]) {
        raw.withUnsafeBytes { buffer in
            let bytes = buffer.assumingMemoryBound(to: UInt8.self)
            // Stuffing rarely adds much: room for the message, its CRs and a few dots, at once.
            output.reserveCapacity(output.count + bytes.count + bytes.count / 32 + 8)
            var lineStart = 0
            var inBody = false
            var linesLeft = bodyLines ?? Int.max
            while lineStart < bytes.count {
                if inBody {
                    if linesLeft == 0 { break }
                    linesLeft -= 1
                }
                var lineEnd = lineStart
                while lineEnd < bytes.count, bytes[lineEnd] != lf { lineEnd += 1 }
                var contentEnd = lineEnd
                if lineEnd < bytes.count, contentEnd > lineStart, bytes[contentEnd - 1] == cr { contentEnd -= 1 }
                if bytes[lineStart] == dot { output.append(dot) }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[lineStart..<contentEnd]))
                output.append(cr)
                output.append(lf)
                if !inBody, contentEnd == lineStart { inBody = true }
                lineStart = lineEnd + 1
            }
        }
        output.append(contentsOf: [dot, cr, lf])
    }
}
