import MockServerCore
import MockServerHTTP

/// A transcript entry with a recording's masked values hidden, for a transcript that is printed
/// or written to a file: the raw requests and responses it holds would otherwise carry them.
package enum TranscriptMasking {
    /// `entry` with each masked header line's value, and each masked JSON field of a body that
    /// follows a head, replaced.
    package static func masked(_ entry: Transcript.Entry, mask: HTTPRecorder.Mask) -> Transcript.Entry {
        let event: Transcript.Event
        switch entry.event {
        case .input(let unit, let response): event = .input(InputUnit(bytes: masked(unit.bytes, mask: mask)), response: response)
        case .unmatched(let unit): event = .unmatched(InputUnit(bytes: masked(unit.bytes, mask: mask)))
        case .output(let bytes): event = .output(masked(bytes, mask: mask))
        default: return entry
        }
        return Transcript.Entry(sequence: entry.sequence, connection: entry.connection, channel: entry.channel, time: entry.time, event: event,
                                exchange: entry.exchange)
    }

    /// HTTP message bytes with masked header values, query parameters (in a request line), and
    /// form and JSON fields replaced. Bytes that are not an HTTP message (a line protocol's) are
    /// taken as lines: a `Name: value` line of a masked header is masked there too.
    package static func masked(_ bytes: [UInt8], mask: HTTPRecorder.Mask) -> [UInt8] {
        let headEnd = bytes.firstRange(of: [0x0D, 0x0A, 0x0D, 0x0A]).map { ($0.lowerBound, $0.upperBound) }
        let head = headEnd.map { Array(bytes[..<$0.0]) } ?? bytes
        var contentType: String?
        var chunked = false
        var lines: [[UInt8]] = []
        for (number, line) in head.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            if number == 0, let requestLine = maskedRequestLine(line, mask: mask) {
                lines.append(requestLine)
                continue
            }
            if headEnd == nil, let verb = credentialVerb(line) {
                // A line protocol's password (FTP's and POP3's PASS, FTP's ACCT).
                let ending: [UInt8] = line.last == 0x0D ? [0x0D] : []
                lines.append(Array("\(verb) \(mask.replacement)".utf8) + ending)
                continue
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                lines.append(Array(line))
                continue
            }
            let name = String(decoding: line[..<colon], as: UTF8.self).trimmingSpaces()
            // The value without the line's CR (lines are split at LF).
            let value = line[line.index(after: colon)...].last == 0x0D ? line[line.index(after: colon)...].dropLast() : line[line.index(after: colon)...]
            if name.lowercased() == "content-type" {
                contentType = String(decoding: value, as: UTF8.self).trimmingSpaces()
            }
            if name.lowercased() == "transfer-encoding" {
                chunked = String(decoding: value, as: UTF8.self).trimmingSpaces().lowercased() == "chunked"
            }
            if !name.contains(" "), mask.masks(header: name) {
                let ending: [UInt8] = line.last == 0x0D ? [0x0D] : []
                lines.append(Array(line[...colon]) + Array(" \(mask.replacement)".utf8) + ending)
            } else {
                lines.append(Array(line))
            }
        }
        var result = Array(lines.joined(separator: [0x0A]))
        if let (_, bodyStart) = headEnd {
            let body = Array(bytes[bodyStart...])
            if chunked, let request = HTTPMockRequest(parsing: bytes), let masked = mask.maskedBody(request.body, contentType: contentType) {
                // A chunked body is masked whole, and written again as one chunk.
                result += [0x0D, 0x0A, 0x0D, 0x0A] + Array("\(String(masked.count, radix: 16))\r\n".utf8) + masked + Array("\r\n0\r\n\r\n".utf8)
            } else {
                result += [0x0D, 0x0A, 0x0D, 0x0A] + (mask.maskedBody(body, contentType: contentType) ?? body)
            }
        }
        return result
    }

    /// The commands of line protocols whose argument is a password: `PASS` (FTP, POP3) and `ACCT` (FTP).
    package static let credentialCommands = ["PASS", "ACCT"]

    /// The command of a line that sends a password (``credentialCommands``, in any case, with an
    /// argument), as the line spells it; `nil` for any other line.
    package static func credentialVerb(_ line: some Collection<UInt8>) -> String? {
        guard let space = line.firstIndex(of: 0x20) else { return nil }
        let verb = String(decoding: line[..<space], as: UTF8.self)
        return credentialCommands.contains(where: { $0.equalsIgnoringASCIICase(verb) }) ? verb : nil
    }

    /// A request line (`METHOD TARGET HTTP/x`) with its query's masked parameters replaced; `nil`
    /// when `line` is not one or nothing in it is masked.
    private static func maskedRequestLine(_ line: ArraySlice<UInt8>, mask: HTTPRecorder.Mask) -> [UInt8]? {
        // Words as the parser reads them: a run of spaces counts as one.
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true)
        guard parts.count == 3, parts[2].starts(with: Array("HTTP/".utf8)),
              let question = parts[1].firstIndex(of: UInt8(ascii: "?")) else { return nil }
        let query = String(decoding: parts[1][parts[1].index(after: question)...], as: UTF8.self)
        guard let masked = mask.requestMask.maskedQuery(query) else { return nil }
        return Array(parts[0]) + [UInt8(ascii: " ")] + Array(parts[1][...question]) + Array(masked.utf8) + [UInt8(ascii: " ")] + Array(parts[2])
    }
}
