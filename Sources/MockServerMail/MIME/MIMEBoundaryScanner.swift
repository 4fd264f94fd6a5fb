/// Finds the parts of a multipart body (RFC 2046 §5.1.1) in one pass over its lines.
///
/// A delimiter is a whole line: `--` and the boundary, then `--` for the close delimiter, then only
/// spaces or tabs (so a boundary that is a prefix of a longer one on the line does not match). A
/// part runs from after its delimiter line to the line end before the next one (that line end is
/// the delimiter's, as Python gives it); what precedes the first delimiter (the preamble) and
/// follows the close delimiter (the epilogue) is no part. Without a close delimiter, the last part
/// runs to the end of the body, less its last line end. Two delimiters in a row make an empty part
/// (RFC 2046 §5.1.1; Python drops it).
package enum MIMEBoundaryScanner {
    /// The ranges of the parts of `bytes[range]` delimited by `boundary`, and whether a close
    /// delimiter ended them.
    package static func parts(of bytes: UnsafeRawBufferPointer, in range: Range<Int>, boundary: String) -> (parts: [Range<Int>], closed: Bool) {
        let delimiter = Array(("--" + boundary).utf8)
        var parts: [Range<Int>] = []
        var partStart: Int?
        var lineStart = range.lowerBound
        while lineStart < range.upperBound {
            var lineEnd = lineStart
            while lineEnd < range.upperBound, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            let next = lineEnd < range.upperBound ? lineEnd + 1 : lineEnd
            if lineEnd - lineStart >= delimiter.count, bytes[lineStart] == UInt8(ascii: "-"), matches(delimiter, in: bytes, at: lineStart) {
                var cursor = lineStart + delimiter.count
                var close = false
                if cursor + 1 < lineEnd, bytes[cursor] == UInt8(ascii: "-"), bytes[cursor + 1] == UInt8(ascii: "-") {
                    close = true
                    cursor += 2
                }
                while cursor < lineEnd, bytes[cursor] == UInt8(ascii: " ") || bytes[cursor] == UInt8(ascii: "\t") || bytes[cursor] == UInt8(ascii: "\r") {
                    cursor += 1
                }
                if cursor == lineEnd {
                    if let start = partStart { parts.append(start..<lineEndRemoved(bytes, from: start, to: lineStart)) }
                    if close { return (parts, true) }
                    partStart = next
                }
            }
            lineStart = next
        }
        // No close delimiter: the last part runs to the end, its last line end removed (as Python does).
        if let start = partStart { parts.append(start..<lineEndRemoved(bytes, from: start, to: range.upperBound)) }
        return (parts, false)
    }

    /// `end`, moved before the CRLF or LF that ends `bytes[start..<end]`, if one does.
    static func lineEndRemoved(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int {
        var end = end
        if end > start, bytes[end - 1] == UInt8(ascii: "\n") {
            end -= 1
            if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        }
        return end
    }

    static func matches(_ delimiter: [UInt8], in bytes: UnsafeRawBufferPointer, at start: Int) -> Bool {
        for (offset, byte) in delimiter.enumerated() where bytes[start + offset] != byte { return false }
        return true
    }
}
