import Foundation

/// How a stored message travels in a POP3 multi-line answer (RFC 1939 §3): its size as POP3
/// reports it, and its whole stuffed form at once (``POP3Transmission`` sends it in parts).
package enum POP3DotStuffing {
    private static let cr: UInt8 = 0x0D, lf: UInt8 = 0x0A

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

    /// Appends `raw` to `output` as a whole multi-line answer's body and end line, at once
    /// (``POP3Transmission`` run to its end).
    ///
    /// - Parameters:
    ///   - raw: the stored message.
    ///   - bodyLines: for TOP, how many lines of the body to send after the header and the
    ///     empty line that ends it; nil for the whole message (RETR).
    ///   - output: where the bytes go.
    package static func append(_ raw: Data, bodyLines: Int? = nil, to output: inout [UInt8]) {
        var transmission = POP3Transmission(raw, bodyLines: bodyLines)
        while !transmission.append(to: &output, limit: Int.max) {}
    }
}
