/// How a server's network behaves, in the manner of toxiproxy's toxics: latency with jitter,
/// bandwidth, writes sliced into delayed pieces, a data limit, each per direction, and a slow close,
/// a timeout and a reset for the whole connection; each connection gets them with a probability.
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
}
