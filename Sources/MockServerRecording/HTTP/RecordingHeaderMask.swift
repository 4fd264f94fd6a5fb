import MockServerHTTP

/// A ``HTTPRecorder/Mask``'s header rules made once for a recorder: it decides as
/// ``HTTPRecorder/Mask/masks(header:)`` does for every field of every exchange written, with the
/// mask's lists of names compared as prepared byte sets rather than walked as strings each time.
struct RecordingHeaderMask: Sendable {
    private let unmasked: HTTPFieldNames
    private let masked: HTTPFieldNames
    private let fragments: HTTPFieldNames
    /// What stands in for a masked value.
    let replacement: String

    init(_ mask: HTTPRecorder.Mask) {
        unmasked = HTTPFieldNames(mask.unmaskedHeaders)
        masked = HTTPFieldNames(mask.headers)
        fragments = HTTPFieldNames(mask.headerNameFragments)
        replacement = mask.replacement
    }

    /// Whether the header `name` is masked: named in the mask's headers or holding one of its
    /// fragments, and not among its unmasked headers.
    func masks(header name: String) -> Bool {
        !unmasked.contains(name) && (masked.contains(name) || fragments.isFragment(of: name))
    }

    /// `headers` with masked values replaced: the same headers, not copied, when none is masked.
    func masked(_ headers: HTTPHeaders) -> HTTPHeaders {
        guard let first = headers.fields.firstIndex(where: { masks(header: $0.name) }) else { return headers }
        var result = HTTPHeaders(Array(headers.fields[..<first]))
        result.reserveCapacity(headers.count)
        for field in headers.fields[first...] {
            result.add(name: field.name, value: masks(header: field.name) ? replacement : field.value)
        }
        return result
    }
}
