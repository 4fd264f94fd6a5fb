import Foundation
import MockServer
import MockServerCore

/// The admin API's JSON: transcript entries, uploads and errors as JSON values.
enum AdminJSON {
    /// `value` as JSON bytes (keys sorted, so answers are stable).
    static func encode(_ value: Any) -> [UInt8] {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])) ?? Data("null".utf8)
        return Array(data) + [0x0A]
    }

    /// An entry as a JSON object: its place, connection, channel, time, kind, and bytes as text
    /// (plus base64 when they are not UTF-8).
    static func entry(_ entry: TranscriptEntry) -> [String: Any] {
        var object: [String: Any] = [
            "sequence": entry.sequence, "connection": entry.connection, "channel": entry.channel.name,
            "time": entry.time.timeIntervalSince1970, "text": entry.description,
        ]
        func bytes(_ value: [UInt8]) {
            object["data"] = String(decoding: value, as: UTF8.self)
            if String(exactUTF8: value) == nil { object["base64"] = Data(value).base64EncodedString() }
        }
        switch entry.event {
        case .connected(let peer): object["event"] = "connected"; object["peer"] = peer
        case .input(let input, let response): object["event"] = "input"; bytes(input.bytes); object["response"] = response ?? NSNull()
        case .unmatched(let input): object["event"] = "unmatched"; bytes(input.bytes)
        case .output(let value): object["event"] = "output"; bytes(value)
        case .sent(let count): object["event"] = "sent"; object["bytes"] = count
        case .received(let count): object["event"] = "received"; object["bytes"] = count
        case .note(let note): object["event"] = note.kind; if let count = note.bytes { object["bytes"] = count }
        case .uploaded(let name, let count): object["event"] = "uploaded"; object["name"] = name; object["bytes"] = count
        case .paused(let duration): object["event"] = "paused"; object["seconds"] = duration.inSeconds
        case .switchedSet(let name): object["event"] = "set"; object["name"] = name
        case .closed(let reason): object["event"] = "closed"; object["reason"] = "\(reason)"
        }
        return object
    }

    /// A transcript entry as one JSON line (for `--transcript FILE`).
    static func line(_ entry: TranscriptEntry) -> [UInt8] { encode(AdminJSON.entry(entry)) }
}
