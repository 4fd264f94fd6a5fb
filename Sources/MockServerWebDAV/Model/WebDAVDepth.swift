import MockServerHTTP

/// How deep a WebDAV request reaches (`Depth: 0`, `1`, or `infinity`, the default).
package enum WebDAVDepth: Equatable {
    case zero, one, infinity

    /// The `Depth` header's value, `infinity` when there is none (RFC 4918 §9.1); `nil` for
    /// anything but `0`, `1` and `infinity` (RFC 4918 §10.2), which is refused with 400.
    package init?(header: String?) {
        switch header?.trimmingSpaces().lowercased() {
        case "0": self = .zero
        case "1": self = .one
        case nil, "infinity": self = .infinity
        default: return nil
        }
    }

    /// Why the `Depth` header `value` is refused, naming it.
    package static func refusal(_ value: String) -> String {
        "the Depth header \"\(value)\" is not 0, 1 or infinity\n"
    }
}
