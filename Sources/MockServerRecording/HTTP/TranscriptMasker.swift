@_spi(HotPath) import MockServerCore

/// Masks a transcript's entries as they come (``TranscriptMasking``), for a transcript printed or
/// written to a file while a recording runs, including bodies recorded apart from their heads: an
/// HTTP/1.1 answer's body of 16 KiB or more is sent, and recorded, as an entry of its own after its
/// head (it is shared with the response, not copied), and an HTTP/2 stream's body follows its head
/// in entries of their own. Such a body is masked as the head before it on the same connection and
/// stream says (its `Content-Type`), so that a masked JSON field of a large answer never reaches
/// the file.
///
/// It is called from the server's loop threads: the heads waiting for their bodies are kept under a lock.
package final class TranscriptMasker: Sendable {
    /// Where a body follows its head: a connection's channel, and its stream for HTTP/2.
    private struct Place: Hashable {
        var connection: Int
        var channel: Transcript.Channel
        var stream: Int?
    }

    private let mask: HTTPRecorder.Mask
    /// The `Content-Type` of each head whose body is still to come, by where it comes.
    private let waitingBodies = Locked<[Place: String]>([:])

    /// A masker hiding `mask`'s values.
    package init(mask: HTTPRecorder.Mask) {
        self.mask = mask
    }

    /// `entry` with its masked values hidden; a body entry that follows a head of its own is
    /// masked as that head's `Content-Type` says.
    package func masked(_ entry: Transcript.Entry) -> Transcript.Entry {
        guard case .output(let bytes) = entry.event else { return TranscriptMasking.masked(entry, mask: mask) }
        let place = Place(connection: entry.connection, channel: entry.channel, stream: entry.exchange?.stream)
        if let contentType = Self.bodyToCome(after: bytes) {
            waitingBodies.withLock { $0[place] = contentType }
            return TranscriptMasking.masked(entry, mask: mask)
        }
        let contentType = waitingBodies.withLock { $0.removeValue(forKey: place) }
        guard let contentType, !Self.isHead(bytes) else { return TranscriptMasking.masked(entry, mask: mask) }
        let body = mask.maskedBody(bytes, contentType: contentType) ?? bytes
        return Transcript.Entry(sequence: entry.sequence, connection: entry.connection, channel: entry.channel, time: entry.time,
                                event: .output(body), exchange: entry.exchange)
    }

    /// Whether `bytes` start a response head (`HTTP/1.1 200`, HTTP/2's `HTTP/2 200`).
    private static func isHead(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0x48, 0x54, 0x54, 0x50, 0x2F])
    }

    /// The `Content-Type` of a response head that ends `bytes` with nothing after it (its body
    /// comes in the next entry) and says it has a body that is not chunked; `nil` otherwise.
    private static func bodyToCome(after bytes: [UInt8]) -> String? {
        guard isHead(bytes), bytes.count >= 4, bytes.suffix(4).elementsEqual([0x0D, 0x0A, 0x0D, 0x0A]) else { return nil }
        var contentType: String?
        for line in bytes.dropLast(2).split(separator: 0x0A).dropFirst() {
            let line = line.last == 0x0D ? line.dropLast() : line
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let name = String(decoding: line[..<colon], as: UTF8.self).trimmingSpaces()
            let value = String(decoding: line[line.index(after: colon)...], as: UTF8.self).trimmingSpaces()
            if name.equalsIgnoringASCIICase("transfer-encoding"), value.lowercased().contains("chunked") { return nil }
            if name.equalsIgnoringASCIICase("content-type") { contentType = value }
        }
        return contentType
    }
}
