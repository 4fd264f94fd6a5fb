/// The header section of a message or a part (RFC 5322 §2.2): its fields in order, read in one pass
/// over the bytes (linear in their number), and where the body starts.
///
/// Lines end in CRLF or a bare LF. A line that starts with a space or a tab continues the field
/// before it (folding). The section ends at the first empty line (the body starts after it), or at a
/// line that is neither a field nor a continuation (the body starts at that line, as Python reads a
/// missing separator), or at the end of the bytes. A leading mbox `From ` line is skipped. A field
/// longer than the limit keeps its first `maximumHeaderLength` bytes and marks the section truncated.
package struct MIMEHeaderSection: Sendable, Equatable {
    package private(set) var fields: [MIMEHeaderField] = []
    /// Where the body starts in the stored message.
    package private(set) var bodyStart: Int
    /// Whether a field was cut at the length limit.
    package private(set) var isTruncated = false

    /// An empty section whose body starts at `bodyStart`.
    package init(bodyStart: Int) {
        self.bodyStart = bodyStart
    }

    /// Reads the header section of `bytes[range]`; offsets are `bytes`'.
    package init(reading bytes: UnsafeRawBufferPointer, in range: Range<Int>, maximumLength: Int) {
        self.init(bodyStart: range.upperBound)
        var lineStart = range.lowerBound
        var current: (name: String, start: Int, end: Int, value: [UInt8], cut: Bool)?
        var first = true
        func finish(_ field: (name: String, start: Int, end: Int, value: [UInt8], cut: Bool)?, into section: inout MIMEHeaderSection) {
            guard let field else { return }
            section.fields.append(MIMEHeaderField(name: field.name, lowercasedName: field.name.lowercased(),
                                                  value: String(decoding: field.value, as: UTF8.self), range: field.start..<field.end))
            if field.cut { section.isTruncated = true }
        }
        while lineStart < range.upperBound {
            // The line: [lineStart, contentEnd), its end of line up to next.
            var cursor = lineStart
            while cursor < range.upperBound, bytes[cursor] != UInt8(ascii: "\n") { cursor += 1 }
            let next = cursor < range.upperBound ? cursor + 1 : cursor
            var contentEnd = cursor
            if contentEnd > lineStart, bytes[contentEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
            defer { first = false }
            if contentEnd == lineStart {
                // The empty line: the body follows it.
                finish(current, into: &self)
                bodyStart = next
                return
            }
            let lead = bytes[lineStart]
            if lead == UInt8(ascii: " ") || lead == UInt8(ascii: "\t") {
                if var field = current {
                    // A continuation: the line break goes, the white space stays.
                    let room = maximumLength - (field.end - field.start) - 2
                    let length = contentEnd - lineStart
                    if room >= length {
                        field.value.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[lineStart..<contentEnd]))
                    } else {
                        if room > 0 { field.value.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[lineStart..<(lineStart + room)])) }
                        field.cut = true
                    }
                    field.end = contentEnd
                    current = field
                    lineStart = next
                    continue
                }
                // A continuation of no field (as the first line): skipped, as Python skips it.
                lineStart = next
                continue
            }
            if first, contentEnd - lineStart >= 5, bytes[lineStart..<(lineStart + 5)].elementsEqual("From ".utf8) {
                lineStart = next
                continue
            }
            // A field: printable ASCII but the colon, then a colon.
            var colon = lineStart
            while colon < contentEnd, bytes[colon] != UInt8(ascii: ":"), bytes[colon] > 0x20, bytes[colon] < 0x7F { colon += 1 }
            guard colon < contentEnd, bytes[colon] == UInt8(ascii: ":") else {
                // Neither a field nor a continuation: the body starts here.
                finish(current, into: &self)
                bodyStart = lineStart
                return
            }
            finish(current, into: &self)
            var valueStart = colon + 1
            while valueStart < contentEnd, bytes[valueStart] == UInt8(ascii: " ") || bytes[valueStart] == UInt8(ascii: "\t") { valueStart += 1 }
            let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[lineStart..<colon]), as: UTF8.self)
            let room = maximumLength - (valueStart - lineStart)
            let valueEnd = min(contentEnd, valueStart + max(0, room))
            current = (name, lineStart, contentEnd, Array(UnsafeRawBufferPointer(rebasing: bytes[valueStart..<valueEnd])), valueEnd < contentEnd)
            lineStart = next
        }
        finish(current, into: &self)
        bodyStart = range.upperBound
    }

    /// The value of the first field named `name` (any case), unfolded, not decoded.
    package subscript(name: String) -> String? {
        let lowercased = name.lowercased()
        return fields.first { $0.lowercasedName == lowercased }?.value
    }

    /// The values of every field named `name` (any case), in order.
    package func values(_ name: String) -> [String] {
        let lowercased = name.lowercased()
        return fields.filter { $0.lowercasedName == lowercased }.map(\.value)
    }
}
