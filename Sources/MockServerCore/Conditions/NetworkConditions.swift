/// How a server's network behaves, in the manner of toxiproxy's toxics: latency with jitter,
/// bandwidth, writes sliced into delayed pieces, a data limit, each per direction, and a slow close,
/// a timeout and a reset for the whole connection; each connection gets them with a probability, and
/// each direction with its own.
///
/// They apply below TLS, to every TCP connection a server accepts or makes for its clients: a
/// script's control connections, FTP's data connections, HTTP, WebDAV and WebSocket alike. Set them
/// before starting (``MockServer/Configuration/conditions``) or while running
/// (``MockServer/networkConditions``; the admin API's `PUT /conditions`): a connection keeps the
/// conditions it opened with.
///
/// ```swift
/// var conditions = NetworkConditions()
/// conditions.toClient.latency = .milliseconds(200)
/// conditions.toClient.bytesPerSecond = 64 * 1024   // a slow download
/// conditions.toServer.bytesPerSecond = 16 * 1024   // and a slower upload
/// ```
public struct NetworkConditions: Sendable, Hashable {
    /// What happens to the bytes going one way.
    public struct Direction: Sendable, Hashable {
        /// How long every byte takes to arrive, beyond the real network's time.
        public var latency: Duration = .zero
        /// A random amount, up to this, added to or taken from each write's latency (order is kept).
        public var jitter: Duration = .zero
        /// The most bytes that go through per second; unlimited when `nil`.
        public var bytesPerSecond: Int?
        /// Writes cut into pieces of at most this many bytes, with `sliceDelay` between pieces: what
        /// the other side reads arrives in small pieces.
        public var sliceSize: Int?
        /// The pause between two slices.
        public var sliceDelay: Duration = .zero
        /// The connection closes once this many bytes have gone this way (the rest is dropped).
        public var dataLimit: Int?
        /// The chance, from 0 to 1, that a connection that drew the conditions (``NetworkConditions/probability``)
        /// gets this direction's too, drawn apart from the other direction's: a slow download on some
        /// connections and a slow upload on others.
        public var probability: Double = 1

        /// No conditions.
        public init() {}

        /// Whether this direction changes nothing.
        public var isNeutral: Bool {
            latency == .zero && jitter == .zero && bytesPerSecond == nil && sliceSize == nil && dataLimit == nil
        }
    }

    /// The server's bytes on their way to the client (downloads, answers).
    public var toClient = Direction()
    /// The client's bytes on their way to the server (uploads, requests).
    public var toServer = Direction()
    /// How long the server's FIN waits once a connection closes (a slow close).
    public var slowClose: Duration = .zero
    /// After this long, a connection is closed, whatever it was doing.
    public var timeout: Duration?
    /// After this long, a connection is reset (RST).
    public var resetAfter: Duration?
    /// The chance, from 0 to 1, that a new connection gets these conditions; the others get none.
    public var probability: Double = 1

    /// No conditions.
    public init() {}

    /// Whether nothing is changed for any connection.
    public var isNeutral: Bool {
        toClient.isNeutral && toServer.isNeutral && slowClose == .zero && timeout == nil && resetAfter == nil
    }

    /// What one new connection gets: `nil` when it does not draw the conditions (``probability``) or
    /// they change nothing, else the conditions with each direction it did not draw
    /// (``Direction/probability``) left neutral.
    ///
    /// ```swift
    /// var random = SystemRandomNumberGenerator()
    /// let drawn = conditions.drawn(using: &random)
    /// ```
    public func drawn(using random: inout some RandomNumberGenerator) -> NetworkConditions? {
        guard !isNeutral, Self.draws(probability, using: &random) else { return nil }
        var drawn = self
        if !Self.draws(toClient.probability, using: &random) { drawn.toClient = Direction() }
        if !Self.draws(toServer.probability, using: &random) { drawn.toServer = Direction() }
        return drawn.isNeutral ? nil : drawn
    }

    /// Whether a draw with `probability` succeeds (always at 1 or more, never at 0 or less).
    private static func draws(_ probability: Double, using random: inout some RandomNumberGenerator) -> Bool {
        probability >= 1 || (probability > 0 && Double.random(in: 0..<1, using: &random) < probability)
    }
}
