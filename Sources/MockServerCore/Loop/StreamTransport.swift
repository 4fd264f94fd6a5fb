/// What a ``StreamConnection`` reads from and writes to: a TCP socket watched by the loop's
/// selector (``SocketTransport``), or bytes handed over in memory by a client in the same process
/// (``MemoryTransport``). Every method is called on the loop's thread.
package protocol StreamTransport: AnyObject {
    /// The peer's address, when there is one.
    var peerAddress: NetworkAddress? { get }
    /// The address the connection was accepted on, when there is one.
    var localAddress: NetworkAddress? { get }
    /// The peer as the transcript names it.
    var peerDescription: String { get }

    /// Starts reporting readiness to `handler` for `interest`.
    func attach(_ handler: any LoopHandler, to loop: EventLoop, interest: Interest) throws
    /// Changes what readiness is reported.
    func setInterest(_ interest: Interest, on loop: EventLoop) throws
    /// Stops reporting readiness; ``close(reset:)`` follows.
    func detach(from loop: EventLoop)

    /// Reads what has arrived into `buffer`.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Socket.ReadResult
    /// Writes from `buffer`, as far as the peer takes it now.
    func write(_ buffer: UnsafeRawBufferPointer) -> Socket.WriteResult
    /// The bytes written but not yet acknowledged by the peer, when the transport can tell (a TCP
    /// socket's send queue); `nil` when it cannot.
    var unacknowledgedBytes: Int? { get }
    /// Whether bytes the transport took are still on their way to the peer inside it (TLS records
    /// the socket has not taken yet): the connection neither closes nor counts its output written
    /// until they are gone. `false` by default.
    var hasPendingOutput: Bool { get }
    /// The transport of the connection's network conditions in this one's chain (itself, or one
    /// it wraps, as TLS wraps the socket's), if the connection has conditions. By default, itself
    /// when it is one.
    var conditioned: ConditionedTransport? { get }
    /// The error an outbound connection attempt to `target` ended with, or `nil` once it is made.
    func connectionError(to target: NetworkAddress) -> SocketCallError?
    /// Ends the sending side while input goes on.
    func shutdownWrite()
    /// Ends the connection: with `reset`, abortively (an RST on a socket).
    func close(reset: Bool)
}

extension StreamTransport {
    package var hasPendingOutput: Bool { false }
    package var conditioned: ConditionedTransport? { self as? ConditionedTransport }
}
