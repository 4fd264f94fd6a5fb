import MockServerEngine

extension MockServer.HTTP2ServerSettings {
    /// HTTP/2's flood defences: what a client may send that costs the server work and gives it none,
    /// before its connection ends with GOAWAY `ENHANCE_YOUR_CALM` (RFC 9113 §7). Each one `nil` is
    /// that defence off; ``off`` turns them all off (a load test that resets thousands of streams,
    /// a test of a client that floods on purpose).
    ///
    /// A budget is a token bucket: it starts full, each frame it counts spends a token, and a spent
    /// budget comes back in full over ``refillTime`` (a token every `refillTime / budget`).
    ///
    /// ```swift
    /// var configuration = MockServer.Configuration()
    /// configuration.settings[MockServer.HTTP2ServerSettings.self, default: .init()].defences.resetBudget = 10
    /// configuration.settings[MockServer.HTTP2ServerSettings.self, default: .init()].defences.zeroWindowTimeout = nil
    /// ```
    public struct Defences: Sendable, Hashable {
        /// RST_STREAM frames a client may send at once (CVE-2023-44487, "rapid reset"): 1,000 by
        /// default, as nghttp2's. Every RST_STREAM counts, a reset that crossed its stream's answer
        /// on the wire too.
        public var resetBudget: Int?
        /// Frames that carry nothing a client may send at once (CVE-2019-9518 and its kin): 10,000
        /// by default, as nghttp2's "glitch" limit. They are DATA with no bytes and no END_STREAM,
        /// PRIORITY, SETTINGS (acknowledgements too), PING, WINDOW_UPDATE on a closed stream, an
        /// empty CONTINUATION that does not end its block, a frame of an unknown type, and a frame
        /// the server answers with RST_STREAM (a malformed request, DATA on a closed stream). Each
        /// request (HEADERS) and each DATA frame that carries bytes gives a token back, so a
        /// long-lived connection that does work (PINGs every few seconds, a browser's PRIORITY
        /// frames) is never cut. Every connection spends two at its start: the client's SETTINGS
        /// and its acknowledgement of the server's.
        public var emptyFrameBudget: Int?
        /// How long a spent budget takes to come back in full: 30 seconds by default (the default
        /// budgets then come back at about 33 resets and 333 frames a second).
        public var refillTime: Duration
        /// How long response bytes may wait on windows the client keeps at zero (every stream with
        /// bytes to send blocked, and no WINDOW_UPDATE opening any) before the connection ends:
        /// 30 seconds by default. A window opened, even a byte, starts the wait again.
        public var zeroWindowTimeout: Duration?

        /// Defences with these limits; the defaults are the documented ones.
        public init(resetBudget: Int? = 1_000, emptyFrameBudget: Int? = 10_000, refillTime: Duration = .seconds(30),
                    zeroWindowTimeout: Duration? = .seconds(30)) {
            self.resetBudget = resetBudget
            self.emptyFrameBudget = emptyFrameBudget
            self.refillTime = refillTime
            self.zeroWindowTimeout = zeroWindowTimeout
        }

        /// Every defence off: floods are served to the end, and a zero window waits for ever.
        public static let off = Defences(resetBudget: nil, emptyFrameBudget: nil, zeroWindowTimeout: nil)
    }
}
