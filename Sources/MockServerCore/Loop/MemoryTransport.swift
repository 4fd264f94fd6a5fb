/// A connection's bytes handed over in memory, for a client in the same process (a `URLProtocol`):
/// what the client sends arrives through ``receive(_:)``, and what the connection writes goes to
/// the client's `output` closure. Nothing is watched by the selector; readiness is reported through
/// the loop's inbox, as a socket's would be (level-triggered: again while input waits and is wanted).
///
/// Lives on the loop's thread: the client reaches it only through a ``MemoryConnection``.
package final class MemoryTransport: StreamTransport {
    /// What the connection did, for the client.
    package enum Event: Sendable {
        /// Bytes the connection wrote, in order.
        case bytes([UInt8])
        /// The connection stopped sending but still reads (a half-close).
        case endOfOutput
        /// The connection closed normally.
        case closed
        /// The connection was reset (a script's `«reset»`).
        case reset
    }

    private let output: @Sendable (Event) -> Void
    private var inbound: [UInt8] = []
    private var inboundOffset = 0
    private var inputEnded = false
    private var handler: (any LoopHandler)?
    /// Where readiness is queued: the loop's inbox, all this transport needs of its loop (held
    /// strongly, where an `unowned(unsafe)` loop was until session 28: the inbox holds the transport
    /// only while a readiness report is queued).
    private var inbox: LoopInbox?
    private var interest: Interest = []
    private var readinessQueued = false

    /// A transport whose connection's output goes to `output`, called on the loop's thread.
    package init(output: @escaping @Sendable (Event) -> Void) {
        self.output = output
    }

    package var peerAddress: NetworkAddress? { nil }
    package var localAddress: NetworkAddress? { nil }
    package var peerDescription: String { "in-process" }
    /// Written bytes reach the client at once.
    package var unacknowledgedBytes: Int? { 0 }

    package func connectionError(to target: NetworkAddress) -> SocketCallError? { nil }

    package func attach(_ handler: any LoopHandler, to loop: EventLoop, interest: Interest) throws {
        self.handler = handler
        self.inbox = loop.inbox
        self.interest = interest
        loop.keep(handler)
        queueReadiness()
    }

    package func setInterest(_ interest: Interest, on loop: EventLoop) throws {
        self.interest = interest
        queueReadiness()
    }

    package func detach(from loop: EventLoop) {
        if let handler { loop.forget(handler) }
        handler = nil
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) -> Socket.ReadResult {
        let waiting = inbound.count - inboundOffset
        guard waiting > 0 else { return inputEnded ? .endOfFile : .wouldBlock }
        let count = min(waiting, buffer.count)
        inbound.withUnsafeBytes { bytes in
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[inboundOffset..<inboundOffset + count]))
        }
        inboundOffset += count
        if inboundOffset == inbound.count {
            inbound.removeAll(keepingCapacity: true)
            inboundOffset = 0
        }
        return .bytes(count)
    }

    package func write(_ buffer: UnsafeRawBufferPointer) -> Socket.WriteResult {
        output(.bytes(Array(buffer)))
        return .written(buffer.count)
    }

    package func shutdownWrite() {
        output(.endOfOutput)
    }

    package func close(reset: Bool) {
        output(reset ? .reset : .closed)
    }

    // MARK: From the client, on the loop's thread

    /// Bytes the client sent.
    package func receive(_ bytes: [UInt8]) {
        inbound.append(contentsOf: bytes)
        queueReadiness()
    }

    /// The client closed: the connection reads the end of its input.
    package func receiveEnd() {
        inputEnded = true
        queueReadiness()
    }

    /// The client went away at once (a cancelled load): the connection closes, and whatever it was
    /// waiting for (a pause, an answer's task) is cancelled.
    package func abandon() {
        inputEnded = true
        handler?.close(.peerVanished)
    }

    /// Reports readability once the loop gets round to it, while input (or its end) waits and the
    /// connection wants it.
    private func queueReadiness() {
        guard !readinessQueued, handler != nil, interest.contains(.read), inboundOffset < inbound.count || inputEnded, let inbox else { return }
        readinessQueued = true
        let bound = LoopBound(self)
        inbox.execute { _ in bound.value.reportReadiness() }
    }

    private func reportReadiness() {
        readinessQueued = false
        guard let handler, interest.contains(.read), inboundOffset < inbound.count || inputEnded else { return }
        handler.handle(Readiness(readable: true, writable: false))
        queueReadiness()
    }
}
