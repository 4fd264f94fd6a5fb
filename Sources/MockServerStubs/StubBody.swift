import Foundation
import MockServerCore
import MockServerHTTPScript
import MockServerScript

/// What a stub requires of a request body.
enum StubBody: Sendable {
    /// These bytes exactly.
    case bytes([UInt8])
    /// A pattern over the body's text.
    case pattern(InputPattern)
    /// The same JSON, compared structurally (key order and spacing do not matter).
    case json(canonical: String)
    /// Whatever the closure accepts.
    case predicate(@Sendable (Data) -> Bool)
    /// A gRPC call whose first message has these fields (an endpoint's `"request": {"grpc": …}`).
    case grpc(GRPCRequestPattern)

    func matches(_ body: [UInt8]) -> Bool {
        switch self {
        case .bytes(let expected): body == expected
        case .pattern(let pattern): pattern.match(InputUnit(bytes: body)) != nil
        case .json(let canonical): StubJSON.canonical(Array(body)) == canonical
        case .predicate(let accepts): accepts(Data(body))
        case .grpc(let pattern): pattern.matches(body: body, encoding: nil)
        }
    }

    /// How the requirement reads in a report.
    var description: String {
        switch self {
        case .bytes(let bytes): "\"\(String(decoding: bytes, as: UTF8.self).escapedForDisplay)\""
        case .pattern(let pattern): "matching \(pattern.source)"
        case .json(let canonical): "JSON \(canonical)"
        case .predicate: "accepted by a closure"
        case .grpc(let pattern): pattern.description
        }
    }
}
