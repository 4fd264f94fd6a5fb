import MockServerHTTP

/// The header rule of a ``HTTPRecorder/Mask``: its lists of names as prepared byte sets, so that a
/// field name is compared with them in place rather than walked against each string. The mask
/// holds one and makes it again whenever one of its header lists changes; it decides
/// ``HTTPRecorder/Mask/masks(header:)`` and every field a recording writes.
struct RecordingHeaderMask: Sendable, Equatable {
    private let unmasked: HTTPFieldNames
    private let masked: HTTPFieldNames
    private let fragments: HTTPFieldNames

    /// The rule of `mask`'s header lists.
    init(_ mask: HTTPRecorder.Mask) {
        unmasked = HTTPFieldNames(mask.unmaskedHeaders)
        masked = HTTPFieldNames(mask.headers)
        fragments = HTTPFieldNames(mask.headerNameFragments)
    }

    /// A rule that masks nothing.
    init() {
        unmasked = HTTPFieldNames([])
        masked = unmasked
        fragments = unmasked
    }

    /// Whether the header `name` is masked: named in the mask's headers or holding one of its
    /// fragments (without surrounding spaces, any case), and not among its unmasked headers.
    func masks(header name: String) -> Bool {
        masked.contains(name, orFragmentOf: fragments, unless: unmasked)
    }
}
