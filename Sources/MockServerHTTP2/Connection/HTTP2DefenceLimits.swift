/// The limits of HTTP/2's flood defences, which the driver enforces on what a client sends: each
/// one nil is that defence turned off. Past a budget, or after the timeout, the connection ends
/// with GOAWAY `ENHANCE_YOUR_CALM` (RFC 9113 §7).
package struct HTTP2DefenceLimits: Sendable, Equatable {
    /// RST_STREAM frames a client may send at once (CVE-2023-44487, "rapid reset"); the budget
    /// comes back in full over ``refill``.
    package var resetBudget: Int?
    /// Frames that carry nothing a client may send at once (CVE-2019-9518 and its kin): DATA
    /// without bytes or END_STREAM, PRIORITY, SETTINGS, PING, WINDOW_UPDATE on a closed stream, an
    /// empty CONTINUATION, a frame of an unknown type, and a frame this side answers with
    /// RST_STREAM. The budget comes back in full over ``refill``, and a token with each request
    /// (HEADERS) and each DATA frame that carries bytes.
    package var emptyFrameBudget: Int?
    /// How long a spent budget takes to come back in full.
    package var refill: Duration
    /// How long response bytes may wait for a window the client keeps at zero (no WINDOW_UPDATE,
    /// every stream with bytes to send blocked) before the connection ends.
    package var zeroWindowTimeout: Duration?

    package init(resetBudget: Int?, emptyFrameBudget: Int?, refill: Duration = .seconds(30), zeroWindowTimeout: Duration?) {
        self.resetBudget = resetBudget
        self.emptyFrameBudget = emptyFrameBudget
        self.refill = refill
        self.zeroWindowTimeout = zeroWindowTimeout
    }

    /// The defaults: 1,000 resets and 10,000 frames that carry nothing, each refilled over 30
    /// seconds (nghttp2's stream-reset and "glitch" rate limits: bursts of 1,000 and 10,000, about
    /// 33 and 330 a second), and 30 seconds on a zero window.
    package static let standard = HTTP2DefenceLimits(resetBudget: 1_000, emptyFrameBudget: 10_000, refill: .seconds(30), zeroWindowTimeout: .seconds(30))

    /// Every defence off.
    package static let off = HTTP2DefenceLimits(resetBudget: nil, emptyFrameBudget: nil, zeroWindowTimeout: nil)
}
