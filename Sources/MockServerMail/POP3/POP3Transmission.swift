import Foundation

/// A stored message on its way out as a multi-line answer (RFC 1939 §3), a part at a time, so
/// that RETR of a large message holds a part of its stuffed form, never all of it: every line
/// ends CRLF (a bare LF is sent as CRLF, as Dovecot does; a lone CR is kept), a line that begins
/// with `.` gets another `.`, a CRLF ends a message that has none, and a `.` line ends the answer.
///
/// For TOP it stops after the header, the empty line ending it and so many lines of the body.
/// For a fault's drop half-way, it stops at a given byte of the message, with no end line.
package struct POP3Transmission: Sendable {
    private static let cr: UInt8 = 0x0D, lf: UInt8 = 0x0A, dot: UInt8 = 0x2E

    /// The stored message (shared with the store, not copied).
    private let raw: Data
    /// Where sending stops: the end of the message, or the byte a drop half-way stops at.
    private let end: Int
    /// Whether the transmission stops early with no end line (a fault's drop half-way).
    package let stopsMidway: Bool
    /// The next byte of `raw` to send.
    private var offset = 0
    /// Where the line being sent begins in `raw`; equal to ``offset`` at a line's start.
    private var lineStart = 0
    /// Whether the header's end (the first empty line) has been sent.
    private var inBody = false
    /// How many more body lines to send (TOP); `Int.max` for the whole message.
    private var linesLeft: Int

    /// A transmission of `raw`.
    ///
    /// - Parameters:
    ///   - raw: the stored message.
    ///   - bodyLines: for TOP, how many lines of the body follow the header; nil for all (RETR).
    ///   - stoppingAt: for a drop half-way, the byte of `raw` to stop at, with no end line.
    package init(_ raw: Data, bodyLines: Int? = nil, stoppingAt stop: Int? = nil) {
        self.raw = raw
        end = min(raw.count, max(0, stop ?? raw.count))
        stopsMidway = stop != nil
        linesLeft = max(0, bodyLines ?? Int.max)
    }

    /// Appends the next part to `output`: about `limit` bytes (at least one byte of the message
    /// when any is left), then, once the message is all sent, the end line.
    ///
    /// - Returns: whether the transmission is complete (the end line appended, or the stop reached).
    package mutating func append(to output: inout [UInt8], limit: Int) -> Bool {
        let target = output.count + min(max(1, limit), Int.max - output.count)
        // The position is read into locals, and written back once the bytes are read.
        var offset = offset, lineStart = lineStart, inBody = inBody, linesLeft = linesLeft
        let end = end
        var finished = false
        raw.withUnsafeBytes { buffer in
            let bytes = buffer.assumingMemoryBound(to: UInt8.self)
            output.reserveCapacity(min(target, output.count + (end - offset) + (end - offset) / 32 + 8))
            while offset < end, output.count < target {
                if offset == lineStart {
                    if inBody, linesLeft == 0 {
                        finished = true
                        return
                    }
                    if bytes[offset] == Self.dot { output.append(Self.dot) }
                }
                let scanEnd = min(end, offset + max(1, target - output.count))
                var index = offset
                while index < scanEnd, bytes[index] != Self.lf { index += 1 }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[offset..<index]))
                guard index < scanEnd else {
                    offset = index
                    continue
                }
                // A line ends: its CR, if the message has one, was sent with the line's bytes.
                if index == lineStart || bytes[index - 1] != Self.cr { output.append(Self.cr) }
                output.append(Self.lf)
                let empty = index == lineStart || (index == lineStart + 1 && bytes[lineStart] == Self.cr)
                if inBody {
                    linesLeft -= 1
                } else if empty {
                    inBody = true
                }
                offset = index + 1
                lineStart = offset
            }
            finished = offset >= end
        }
        self.offset = offset
        self.lineStart = lineStart
        self.inBody = inBody
        self.linesLeft = linesLeft
        guard finished else { return false }
        guard !stopsMidway else { return true }
        // A message whose last line has no line end gets one, then the end line.
        if offset > lineStart { output += [Self.cr, Self.lf] }
        output += [Self.dot, Self.cr, Self.lf]
        offset = end
        lineStart = end
        return true
    }
}
