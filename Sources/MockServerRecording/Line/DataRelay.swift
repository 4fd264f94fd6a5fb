import MockServerCore

/// One FTP data connection through the recorder: a listener for the client's connection, which is
/// relayed to the upstream's data port; what passes each way is kept until both sides have closed.
final class DataRelay {
    private var listener: Listener?
    private(set) var port: UInt16 = 0
    private let upstream: NetworkAddress
    private unowned let loop: EventLoop
    private var client: StreamConnection?
    private var server: StreamConnection?
    private var download: [UInt8] = []
    private var upload: [UInt8] = []
    private var pendingUpload: [UInt8] = []
    private var upstreamOpen = false
    private var ended = 0
    private var finished: ((_ download: [UInt8], _ upload: [UInt8]) -> Void)?

    init(listeningOn address: NetworkAddress, upstream: NetworkAddress, loop: EventLoop,
         finished: @escaping (_ download: [UInt8], _ upload: [UInt8]) -> Void) throws {
        self.upstream = upstream
        self.loop = loop
        self.finished = finished
        let socket = try Socket.listening(on: address, backlog: 1)
        let listener = Listener(socket: socket, loop: loop, afterFirst: { $0.close() }) { [weak self] accepted in
            guard let self else { return accepted.close() }
            try self.accept(accepted)
        }
        port = listener.port
        try listener.listen()
        self.listener = listener
    }

    private func accept(_ socket: Socket) throws {
        listener = nil
        let connection = StreamConnection(socket: socket, loop: loop, driver: DataPipeDriver(relay: self, side: .client), channel: .relayedData, recordsOutput: false)
        client = connection
        try connection.start()
        do {
            server = try StreamConnection.connect(to: upstream, loop: loop, driver: DataPipeDriver(relay: self, side: .upstream), channel: .relayedData, recordsOutput: false)
        } catch {
            connection.finishAfterOutput(.failed("upstream data port \(upstream): \(error)"))
        }
    }

    enum Side { case client, upstream }

    func opened(_ side: Side) {
        guard side == .upstream else { return }
        upstreamOpen = true
        if !pendingUpload.isEmpty {
            server?.sendNow(pendingUpload)
            pendingUpload = []
        }
        // A client held while its bytes waited for the connection is read again.
        if server?.hasOutputRoom ?? false { client?.resume() }
    }

    func received(_ bytes: [UInt8], from side: Side) {
        switch side {
        case .client:
            upload += bytes
            if upstreamOpen { server?.sendNow(bytes) } else { pendingUpload += bytes }
        case .upstream:
            download += bytes
            client?.sendNow(bytes)
        }
    }

    /// Whether the connection opposite `side` takes more of `side`'s bytes: less than
    /// ``StreamConnection/outputRoom`` wait for it (or, before the upstream's is made, in
    /// ``pendingUpload``). While it does not, `side` is not read, so that a peer that stops reading
    /// costs the relay at most its buffers.
    func hasRoom(after side: Side) -> Bool {
        switch side {
        case .client: upstreamOpen ? server?.hasOutputRoom ?? true : pendingUpload.count < StreamConnection.outputRoom
        case .upstream: client?.hasOutputRoom ?? true
        }
    }

    /// `side`'s connection wrote enough of what waited: the opposite side is read again.
    func drained(_ side: Side) {
        switch side {
        case .client: server?.resume()
        case .upstream: client?.resume()
        }
    }

    func ended(_ side: Side) {
        ended += 1
        switch side {
        case .client: server?.finishAfterOutput(.finished("the client's data connection ended"))
        case .upstream: client?.finishAfterOutput(.finished("the upstream's data connection ended"))
        }
        if ended >= 2 || (side == .client && server == nil) {
            let report = finished
            finished = nil
            report?(download, upload)
        }
    }

    /// Stops listening, if no connection came.
    func close() {
        listener?.close(.finished("unused data port"))
        listener = nil
    }
}

/// One side of a ``DataRelay``.
final class DataPipeDriver: StreamDriver {
    private let relay: DataRelay
    private let side: DataRelay.Side
    private var done = false

    init(relay: DataRelay, side: DataRelay.Side) {
        self.relay = relay
        self.side = side
    }

    func opened(_ connection: StreamConnection) -> [StreamStep] {
        relay.opened(side)
        return []
    }

    func received(_ bytes: UnsafeRawBufferPointer, on connection: StreamConnection) {
        relay.received(Array(bytes), from: side)
    }

    func next(on connection: StreamConnection, inputEnded: Bool) -> DriverDecision {
        guard inputEnded else { return relay.hasRoom(after: side) ? .needInput : .wait }
        finish()
        return .finish(.peerClosed)
    }

    func outputDrained(on connection: StreamConnection) {
        relay.drained(side)
    }

    func closed(_ connection: StreamConnection, reason: Transcript.CloseReason) {
        finish()
    }

    private func finish() {
        guard !done else { return }
        done = true
        relay.ended(side)
    }
}

extension Transcript.Channel {
    /// The relayed data connections, named as FTP names its own (`data`), which this layer does not import.
    fileprivate static let relayedData = Transcript.Channel("data")
}
