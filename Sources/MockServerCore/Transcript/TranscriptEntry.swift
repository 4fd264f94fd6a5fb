import Foundation

extension Transcript {
    /// One event in a server's transcript.
    public struct Entry: Sendable, CustomStringConvertible {
        /// The position in the transcript, from 0, counting entries dropped over the limit.
        public let sequence: Int
        /// The connection, numbered from 1 in order of arrival on either port.
        public let connection: Int
        /// The stream it belongs to: ``Transcript.Channel/main``, or one a protocol opened (FTP's data
        /// connections).
        public let channel: Transcript.Channel
        /// When it was recorded.
        public let time: Date
        /// What happened.
        public let event: Transcript.Event
        /// The exchange an input belongs to on a protocol that carries several at once (an HTTP/2
        /// request's protocol and stream); `nil` for every other entry.
        public let exchange: Transcript.Exchange?

        /// An entry as recorded, or a copy of one with its event changed (a masked one, say).
        package init(sequence: Int, connection: Int, channel: Transcript.Channel, time: Date, event: Transcript.Event,
                     exchange: Transcript.Exchange? = nil) {
            self.sequence = sequence
            self.connection = connection
            self.channel = channel
            self.time = time
            self.event = event
            self.exchange = exchange
        }

        /// One readable line, such as `#3 main     <- USER anonymous  [user]`: the channel's name is
        /// padded to seven characters, so that the arrows line up. An entry with an ``exchange`` ends
        /// with it in parentheses: `#1 main     <- GET /a HTTP/1.1…  [hello]  (HTTP/2 stream 3)`.
        public var description: String {
            guard let exchange else { return line }
            return "\(line)  (\(exchange))"
        }

        /// The line without the exchange.
        private var line: String {
            let name = channel.name
            let prefix = "#\(connection) \(name.count < 7 ? name + String(repeating: " ", count: 7 - name.count) : name)"
            switch event {
            case .connected(let peer): return "\(prefix)  connected from \(peer)"
            case .input(let input, let response): return "\(prefix)  <- \(input)\(response.map { "  [\($0)]" } ?? "")"
            case .unmatched(let input): return "\(prefix)  <- \(input)  [UNMATCHED]"
            case .output(let bytes): return "\(prefix)  -> \(String(decoding: bytes, as: UTF8.self).escapedForDisplay)"
            case .sent(let count): return "\(prefix)  -> \(count) bytes"
            case .received(let count): return "\(prefix)  <- \(count) bytes"
            case .note(let note): return "\(prefix)  \(note.text)"
            case .uploaded(let name, let count): return "\(prefix)  uploaded \"\(name)\" (\(count) bytes)"
            case .paused(let duration): return "\(prefix)  pause \(duration)"
            case .switchedSet(let name): return "\(prefix)  set \"\(name)\""
            case .closed(let reason): return "\(prefix)  closed (\(reason))"
            }
        }
    }
}
