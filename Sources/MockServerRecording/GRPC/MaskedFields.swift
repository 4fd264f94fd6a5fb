import MockServerCore
import MockServerHTTP
import MockServerProtobuf

/// The message fields a recording masks (``GRPCRecordedCall``): those whose name, in the proto3 JSON
/// mapping's camel case or the `.proto` file's snake case, is one of a mask's JSON names
/// (``MockServerHTTP/HTTPRequestMask/jsonFields``). Names compare without case and without
/// underscores, so that `client_secret` masks a field written `clientSecret`.
struct MaskedFields: Sendable {
    /// The mask's JSON names, lower-cased, underscores removed.
    private let names: Set<String>
    /// What stands in for a masked value.
    let replacement: String

    init(_ mask: HTTPRequestMask) {
        names = Set(mask.jsonFields.map(Self.normalized))
        replacement = mask.replacement
    }

    /// Whether a message member named `key` is masked.
    func masks(_ key: String) -> Bool {
        !names.isEmpty && names.contains(Self.normalized(key))
    }

    /// `message` without its masked members, at any depth (a request pattern then takes any value).
    func removing(from message: JSONNode) -> JSONNode {
        transform(message) { _ in nil }
    }

    /// `message`, a `type` message in the JSON mapping, with its masked members' values replaced by
    /// ``replacement``; when that is not a message of `type` (a masked field that is not text),
    /// those members are left out instead.
    func replacing(in message: JSONNode, type: String, codec: ProtoJSONCodec) -> JSONNode {
        let replaced = transform(message) { value in JSONNode(kind: .string(replacement), location: value.location) }
        if (try? codec.binary(fromJSON: replaced, type: type)) != nil { return replaced }
        return removing(from: message)
    }

    /// `value` with each masked member's value given by `change` (left out when it gives `nil`).
    private func transform(_ value: JSONNode, _ change: (JSONNode) -> JSONNode?) -> JSONNode {
        guard !names.isEmpty else { return value }
        switch value.kind {
        case .object(let members):
            var result: [JSONNode.Member] = []
            for member in members {
                if masks(member.key) {
                    if let changed = change(member.value) {
                        result.append(JSONNode.Member(key: member.key, keyLocation: member.keyLocation, value: changed))
                    }
                } else {
                    result.append(JSONNode.Member(key: member.key, keyLocation: member.keyLocation, value: transform(member.value, change)))
                }
            }
            return JSONNode(kind: .object(result), location: value.location)
        case .array(let items):
            return JSONNode(kind: .array(items.map { transform($0, change) }), location: value.location)
        default:
            return value
        }
    }

    private static func normalized(_ name: String) -> String {
        String(name.lowercased().filter { $0 != "_" })
    }
}
