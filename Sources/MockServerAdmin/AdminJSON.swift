import Foundation
import MockServerEngine
import MockServerCore

/// The admin API's JSON: transcript entries, uploads and errors as JSON values, written by the
/// package's one writer (``JSONText``) in its compact layout, with keys sorted.
enum AdminJSON {
    /// `value` as one line of JSON bytes, with its newline.
    static func encode(_ value: JSONNode) -> [UInt8] {
        JSONText.bytes(value, layout: .compact) + [0x0A]
    }

    /// An entry as a JSON object: its place, connection, channel, time, kind, and bytes as text
    /// (plus base64 when they are not UTF-8); an input that came on one of a connection's several
    /// exchanges also has `protocol` and `stream` (an HTTP/2 request's `"HTTP/2"` and stream id).
    static func entry(_ entry: Transcript.Entry) -> JSONNode {
        var object: [String: JSONNode] = [
            "sequence": .number(entry.sequence), "connection": .number(entry.connection), "channel": .string(entry.channel.name),
            "time": .number(entry.time.timeIntervalSince1970), "text": .string(entry.description),
        ]
        if let exchange = entry.exchange {
            object["protocol"] = .string(exchange.protocolName)
            if let stream = exchange.stream { object["stream"] = .number(stream) }
        }
        func bytes(_ value: [UInt8]) {
            object["data"] = .string(String(decoding: value, as: UTF8.self))
            if String(exactUTF8: value) == nil { object["base64"] = .string(Data(value).base64EncodedString()) }
        }
        switch entry.event {
        case .connected(let peer): object["event"] = .string("connected"); object["peer"] = .string(peer)
        case .input(let input, let response): object["event"] = .string("input"); bytes(input.bytes); object["response"] = response.map(JSONNode.string) ?? .null
        case .unmatched(let input): object["event"] = .string("unmatched"); bytes(input.bytes)
        case .output(let value): object["event"] = .string("output"); bytes(value)
        case .sent(let count): object["event"] = .string("sent"); object["bytes"] = .number(count)
        case .received(let count): object["event"] = .string("received"); object["bytes"] = .number(count)
        case .note(let note): object["event"] = .string(note.kind); if let count = note.bytes { object["bytes"] = .number(count) }
        case .uploaded(let name, let count): object["event"] = .string("uploaded"); object["name"] = .string(name); object["bytes"] = .number(count)
        case .paused(let duration): object["event"] = .string("paused"); object["seconds"] = .number(duration.inSeconds)
        case .switchedSet(let name): object["event"] = .string("set"); object["name"] = .string(name)
        case .closed(let reason): object["event"] = .string("closed"); object["reason"] = .string("\(reason)")
        }
        return .object(object)
    }

    /// A transcript entry as one JSON line (for `--transcript FILE`).
    static func line(_ entry: Transcript.Entry) -> [UInt8] { encode(AdminJSON.entry(entry)) }

    /// Strings as a JSON array.
    static func strings(_ values: [String]) -> JSONNode { .array(values.map(JSONNode.string)) }

    /// Integers as a JSON array.
    static func numbers(_ values: [Int]) -> JSONNode { .array(values.map(JSONNode.number)) }
}
