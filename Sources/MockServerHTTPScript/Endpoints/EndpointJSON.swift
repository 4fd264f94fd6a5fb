/// A JSON value of an endpoints file's `"json"` response, with templates in its strings; written
/// back in the file's key order.
package indirect enum EndpointJSON: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(EndpointTemplate)
    case array([EndpointJSON])
    case object([(String, EndpointJSON)])

    package static func == (lhs: EndpointJSON, rhs: EndpointJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        default: false
        }
    }

    /// Whether no string holds a `${…}` value: the JSON text is the same for every request.
    package var isConstant: Bool {
        switch self {
        case .null, .bool, .number: true
        case .string(let template): template.isConstant
        case .array(let items): items.allSatisfy(\.isConstant)
        case .object(let members): members.allSatisfy { $0.1.isConstant }
        }
    }

    /// The JSON text, strings rendered with `value`.
    package func render(_ value: (EndpointTemplate.Source, String) -> String?) -> String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number):
            if number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
            return String(number)
        case .string(let template): return template.render(value).escaped(.json)
        case .array(let items): return "[" + items.map { $0.render(value) }.joined(separator: ",") + "]"
        case .object(let members): return "{" + members.map { $0.0.escaped(.json) + ":" + $0.1.render(value) }.joined(separator: ",") + "}"
        }
    }
}
