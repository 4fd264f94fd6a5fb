#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@_spi(HotPath) import MockServerCore

/// TLS around another transport (a socket): OpenSSL works on two memory buffers, and this type moves
/// ciphertext between them and the inner transport, so the loop never blocks and the connection's
/// driver reads and writes plaintext.
///
/// The connection sees an ordinary transport: ``read(into:)`` gives decrypted bytes, ``write(_:)``
/// takes bytes to encrypt. The handshake runs on the first readiness, before the driver sees any
/// input; what OpenSSL has to send that the inner transport cannot take at once waits here, and the
/// transport watches for writability itself until it is gone (the connection, whose own output is
/// empty, would not). Every method runs on the loop's thread.
package final class TLSTransport: StreamTransport, LoopHandler {
    /// Which side of the handshake this transport plays.
    private enum Role {
        /// The server's: it waits for the ClientHello.
        case server
        /// The client's: it speaks first.
        case client
    }

    private let inner: any StreamTransport
    /// What the transport needs of its context's configuration.
    private let settings: Settings
    private let role: Role

    private struct Settings {
        var handshakeTimeout: Duration
        var ciphertextReadLimit: Int?
        /// The faults the configuration asks for, which the record layer never sees.
        var faults: TLSFaultPlan
    }
    private let library: OpenSSLLibrary
    private let ssl: OpaquePointer
    private let incoming: OpaquePointer
    private let outgoing: OpaquePointer
    /// Where the connection is: its one state, which also decides what each event does.
    private var machine = TLSStateMachine()
    /// Ciphertext OpenSSL produced that the inner transport has not taken yet.
    private var pending: [UInt8] = []
    private var pendingStart = 0
    private var loop: EventLoop?
    /// The connection: held strongly, as the loop holds a registered handler (the loop holds this
    /// transport in its place); let go of when the connection closes.
    private var handler: (any LoopHandler)?
    /// What the connection asked to watch.
    private var wanted: Interest = []
    /// What the inner transport watches.
    private var applied: Interest = []
    /// The loop's shared buffers, once attached.
    private var buffers: TLSBuffers?
    /// This connection's session tag, which the tickets it issues carry (never zero).
    package let sessionTag = TLSTransport.nextSessionTag()
    /// The last session tag given out. Tags are numbered: no two connections of the process share
    /// one, and making one costs no system call (a random one asked the kernel for its bytes on
    /// every connection). A ticket's tag needs no secrecy: the ticket is encrypted under keys
    /// that are the context's own, and only a resumption's tag is ever compared.
    private static let lastSessionTag = Locked<UInt>(0)

    private static func nextSessionTag() -> UInt {
        lastSessionTag.withLock { last in
            last = last == .max ? 1 : last + 1
            return last
        }
    }
    /// The tag a connection must resume (FTPS data connections under `require_ssl_reuse`): the
    /// handshake fails when the session it resumes was not issued with it.
    package var requiredSessionTag: UInt?
    /// Makes the connection issue no session tickets (TLS 1.3 sends them after the handshake): an FTPS
    /// data connection's client resumes the control connection's session and never reads them, and
    /// unread bytes at its close turn the close into a reset that can discard the upload's last bytes.
    package func issueNoTickets() {
        _ = library.SSL_set_num_tickets(ssl, 0)
    }

    /// The reason a connection that did not resume the required session fails with.
    package static let sessionReuseRefusal = "the data connection did not resume the control connection's TLS session (session reuse required)"
    /// Reports the handshake's outcome and other TLS events (the connection records them).
    private let report: (TLSEvent) -> Void

    /// TLS over `inner`, as the server side of `context`; `report` hears the handshake's outcome.
    package init(over inner: any StreamTransport, context: TLSContext, report: @escaping (TLSEvent) -> Void) throws(TLSError) {
        let library = context.library
        let (ssl, incoming, outgoing) = try Self.makeConnection(context.pointer, library)
        _ = library.SSL_set_ex_data(ssl, OpenSSLConstant.applicationDataIndex, UnsafeMutableRawPointer(bitPattern: UInt(sessionTag)))
        library.SSL_set_accept_state(ssl)
        self.inner = inner
        settings = Settings(handshakeTimeout: context.configuration.handshakeTimeout, ciphertextReadLimit: context.configuration.ciphertextReadLimit,
                            faults: TLSFaultPlan(context.configuration))
        role = .server
        self.library = library
        self.ssl = ssl
        self.incoming = incoming
        self.outgoing = outgoing
        self.report = report
    }

    /// TLS over `inner` as the client side of `context`, for `serverName` (sent as SNI when it is a
    /// name, and what the server's certificate must be for, name or address), offering
    /// `applicationProtocols` through ALPN in that order of preference (none when empty); the
    /// handshake begins when the transport is attached.
    package init(connectingOver inner: any StreamTransport, context: TLSClientContext, serverName: String, applicationProtocols: [String] = [],
                 report: @escaping (TLSEvent) -> Void) throws(TLSError) {
        let library = context.library
        let (ssl, incoming, outgoing) = try Self.makeConnection(context.pointer, library)
        library.SSL_set_connect_state(ssl)
        if !applicationProtocols.isEmpty {
            let wire = TLSContext.applicationProtocolList(applicationProtocols)
            guard library.SSL_set_alpn_protos(ssl, wire, UInt32(wire.count)) == 0 else {
                library.SSL_free(ssl)
                throw .setupFailed(library.errorText("cannot offer \(applicationProtocols.joined(separator: ", ")) through ALPN"))
            }
        }
        let isAddress = (try? NetworkAddress(host: serverName, port: 0)) != nil && serverName != "localhost"
        let checked = isAddress
            ? library.X509_VERIFY_PARAM_set1_ip_asc(library.SSL_get0_param(ssl), serverName) == 1
            : library.SSL_set1_host(ssl, serverName) == 1
                && serverName.withCString {
                    library.SSL_ctrl(ssl, OpenSSLConstant.Control.setServerNameIndication, Int(OpenSSLConstant.Control.hostNameType), UnsafeMutableRawPointer(mutating: $0))
                } == 1
        guard checked else {
            library.SSL_free(ssl)
            throw .setupFailed(library.errorText("cannot check the server's certificate for \(serverName)"))
        }
        self.inner = inner
        settings = Settings(handshakeTimeout: context.handshakeTimeout, ciphertextReadLimit: nil, faults: .none)
        role = .client
        self.library = library
        self.ssl = ssl
        self.incoming = incoming
        self.outgoing = outgoing
        self.report = report
    }

    /// A connection's OpenSSL state for `context`, reading from and writing to memory BIOs of its own.
    private static func makeConnection(_ context: OpaquePointer, _ library: OpenSSLLibrary) throws(TLSError)
        -> (ssl: OpaquePointer, incoming: OpaquePointer, outgoing: OpaquePointer) {
        guard let ssl = library.SSL_new(context) else { throw .setupFailed(library.errorText("SSL_new failed")) }
        guard let incoming = MemoryBIO.make(library), let outgoing = MemoryBIO.make(library) else {
            library.SSL_free(ssl)
            throw .setupFailed(library.errorText("BIO_new failed"))
        }
        library.SSL_set_bio(ssl, incoming, outgoing)
        return (ssl, incoming, outgoing)
    }

    deinit {
        library.SSL_free(ssl)
    }

    package var peerAddress: NetworkAddress? { inner.peerAddress }
    package var localAddress: NetworkAddress? { inner.localAddress }
    package var peerDescription: String { inner.peerDescription }
    package var hasPendingOutput: Bool { pendingStart < pending.count }
    /// The network conditions below TLS, when the connection has them.
    package var conditioned: ConditionedTransport? { inner.conditioned }
    package var unacknowledgedBytes: Int? { inner.unacknowledgedBytes.map { $0 + pending.count - pendingStart } }

    package func attach(_ handler: any LoopHandler, to loop: EventLoop, interest: Interest) throws {
        self.handler = handler
        self.loop = loop
        buffers = TLSBuffers.of(loop)
        wanted = interest
        applied = effectiveInterest
        try inner.attach(self, to: loop, interest: applied)
        // A client speaks first: its ClientHello goes out now.
        if role == .client, machine.isHandshaking { advanceHandshake() }
        loop.schedule(after: settings.handshakeTimeout) { [weak self] in
            guard let self, let reason = machine.handshakeTimedOut(after: settings.handshakeTimeout) else { return }
            fail(reason)
            // The connection reads the failure and closes.
            self.handler?.handle(Readiness(readable: true, writable: false, failed: true))
        }
    }

    package func setInterest(_ interest: Interest, on loop: EventLoop) throws {
        wanted = interest
        try applyInterest()
        if interest.contains(.read) && hasBufferedInput { scheduleRead() }
    }

    package func detach(from loop: EventLoop) {
        inner.detach(from: loop)
    }

    package func connectionError(to target: NetworkAddress) -> SocketCallError? {
        inner.connectionError(to: target)
    }

    // MARK: Readiness

    package func handle(_ readiness: Readiness) {
        let hadPending = hasPendingOutput
        if readiness.writable || readiness.failed { flushPending() }
        // Ciphertext just drained: a connection waiting for its output to be written hears of it.
        let drained = hadPending && !hasPendingOutput
        let before = machine.state
        if readiness.readable || readiness.failed {
            switch before {
            case .hanging: dropInput()
            case .handshaking: advanceHandshake()
            case .open, .failed, .closed: break
            }
        }
        if let forwarded = machine.readinessForConnection(readiness, before: before, drained: drained, wantsWrite: wanted.contains(.write),
                                                          hasBufferedInput: { hasBufferedInput }) {
            handler?.handle(forwarded)
        }
        if machine.isClosed { return }
        try? applyInterest()
    }

    package func close(_ reason: Transcript.CloseReason) {
        handler?.close(reason)
    }

    // MARK: Reading

    package func read(into buffer: UnsafeMutableRawBufferPointer) -> Socket.ReadResult {
        if machine.isHandshaking { advanceHandshake() }
        switch machine.read() {
        case .wouldBlock: return .wouldBlock
        case .fail(let reason): return .failed(SocketCallError(call: "TLS", address: inner.peerDescription, code: EPROTO, message: reason))
        case .endOfFile: return .endOfFile
        case .decrypt: break
        }
        var filled = 0
        // A short read from the socket has drained it: asking again would only cost a system call
        // that says so, once there is something to hand out.
        var drained = false
        // What reading made OpenSSL write (session tickets, a key update's answer) goes out with
        // the answer this turn writes, or at its end.
        defer { flushAtEndOfTurn() }
        // More ciphertext from the socket, when OpenSSL wants it: `nil` to go on decrypting, or
        // what the read returns.
        func refill() -> Socket.ReadResult? {
            if drained && filled > 0 { return .bytes(filled) }
            switch pullCiphertext() {
            case .bytes(let count):
                drained = count < min(buffers?.incoming.count ?? 0, settings.ciphertextReadLimit ?? .max)
                return nil
            case .wouldBlock: return filled > 0 ? .bytes(filled) : .wouldBlock
            case .endOfFile:
                report(.truncated)
                return end(.ciphertextEnded, after: filled)
            case .failed(let error): return filled > 0 ? .bytes(filled) : .failed(error)
            }
        }
        // What is known of OpenSSL's input without asking it (each question is a call into it):
        // ciphertext was just added, or the last SSL_read gave less than asked, which leaves no
        // decrypted bytes of its record (SSL_pending would say 0).
        var ciphertextAdded = false
        var recordRead = false
        // OpenSSL's error queue is empty here: every failure's text is read out of it (errorText).
        while filled < buffer.count {
            // With nothing in OpenSSL's input (no decrypted bytes, no ciphertext), SSL_read could
            // only say that it wants more: two calls a request saved (the socket is read first,
            // and a drained socket's bytes are handed out at once).
            if !ciphertextAdded && (recordRead || library.SSL_pending(ssl) == 0) && MemoryBIO.pending(library, incoming) == 0 {
                if let result = refill() { return result }
                ciphertextAdded = true
                continue
            }
            ciphertextAdded = false
            let wanted = min(buffer.count - filled, Int(Int32.max))
            let count = library.SSL_read(ssl, buffer.baseAddress! + filled, Int32(wanted))
            recordRead = count < wanted
            if count > 0 {
                filled += Int(count)
                continue
            }
            switch library.SSL_get_error(ssl, count) {
            case OpenSSLConstant.SSLError.wantRead:
                if let result = refill() { return result }
                ciphertextAdded = true
            case OpenSSLConstant.SSLError.zeroReturn: // the peer's close_notify
                return end(.closeNotify, after: filled)
            default:
                let reason = library.errorText("the TLS record layer failed")
                if filled > 0 { return .bytes(filled) }
                machine.fail(reason)
                report(.failed(reason))
                return .failed(SocketCallError(call: "TLS", address: inner.peerDescription, code: EPROTO, message: reason))
            }
        }
        if hasBufferedInput { scheduleRead() }
        return .bytes(filled)
    }

    /// The end of the input (for `cause`), after the `filled` bytes read before it, if any: those
    /// first, and the end on the next read, which no readiness would announce.
    private func end(_ cause: TLSStateMachine.EndCause, after filled: Int) -> Socket.ReadResult {
        switch machine.inputEnded(cause, after: filled) {
        case .endOfFile: return .endOfFile
        case .bytesThenEnd:
            scheduleRead()
            return .bytes(filled)
        }
    }

    /// Moves what the inner transport has into OpenSSL's input buffer; the inner transport's end
    /// is the caller's to note (the machine remembers it once the handshake is done).
    private func pullCiphertext() -> Socket.ReadResult {
        guard !machine.ciphertextEnded else { return .endOfFile }
        guard var space = buffers?.incoming else { return .wouldBlock }
        if let limit = settings.ciphertextReadLimit, limit < space.count { space = UnsafeMutableRawBufferPointer(rebasing: space[..<max(1, limit)]) }
        let result = inner.read(into: space)
        switch result {
        case .bytes(let count):
            _ = library.BIO_write(incoming, space.baseAddress, Int32(count))
        case .endOfFile, .wouldBlock, .failed:
            break
        }
        return result
    }

    /// Whether decrypted or undecrypted input waits inside OpenSSL, which no readiness will announce.
    private var hasBufferedInput: Bool {
        guard machine.isOpen else { return false }
        return machine.endIsPending || library.SSL_pending(ssl) > 0 || MemoryBIO.pending(library, incoming) > 0
    }

    /// Tells the connection, on the loop's next turn, that input can be read.
    private func scheduleRead() {
        guard let loop, machine.queue(.read) else { return }
        loop.schedule(after: .zero) { [weak self] in
            guard let self, machine.run(.read) else { return }
            handler?.handle(Readiness(readable: true, writable: false))
        }
    }

    // MARK: Handshake

    private func advanceHandshake() {
        while true {
            library.ERR_clear_error()
            let result = library.SSL_do_handshake(ssl)
            if result == 1 {
                if let required = requiredSessionTag, resumedSessionTag != required {
                    fail(Self.sessionReuseRefusal)
                    return
                }
                let action = machine.handshakeDone()
                // The session tickets TLS 1.3 sends now leave with the first answer, in one write.
                flushAtEndOfTurn()
                report(.handshakeDone(handshakeSummary))
                if action == .reportAndShutdownWrite { shutdownWrite() }
                return
            }
            let error = library.SSL_get_error(ssl, result)
            if error == OpenSSLConstant.SSLError.wantClientHelloCallback { // a handshake fault holds it
                playHandshakeFault()
                return
            }
            guard error == OpenSSLConstant.SSLError.wantRead else {
                if let note = settings.faults.handshakeFailureNote { report(.fault(note)) }
                fail(library.errorText("the handshake failed"))
                return
            }
            flushPending()
            switch pullCiphertext() {
            case .bytes: continue
            case .wouldBlock: return
            case .endOfFile:
                fail("the peer closed the connection during the handshake")
                return
            case .failed(let error):
                fail("the connection failed during the handshake: \(error.reason)")
                return
            }
        }
    }

    /// Plays what the fault plan says for the ClientHello the context's callback held (the
    /// alert is sent by OpenSSL, from that callback).
    private func playHandshakeFault() {
        switch settings.faults.heldHello {
        case .hang(let note):
            machine.hang()
            report(.fault(note))
            dropInput()
        case .reset(let note, let reason):
            report(.fault(note))
            fail(reason, ending: .reset)
        case .fail:
            fail(library.errorText("the handshake failed"))
        }
    }

    /// Reads and drops what the peer sends while the handshake hangs, until it closes.
    private func dropInput() {
        guard let space = buffers?.incoming else { return }
        while true {
            switch inner.read(into: space) {
            case .bytes: continue
            case .wouldBlock: return
            case .endOfFile:
                fail("the peer closed the connection while the handshake hung (handshake fault hang)")
                return
            case .failed(let error):
                fail("the connection failed while the handshake hung: \(error.reason)")
                return
            }
        }
    }

    /// The tag carried by the ticket this connection's session was resumed from, if it was.
    private var resumedSessionTag: UInt? {
        guard library.SSL_session_reused(ssl) == 1, let session = library.SSL_get_session(ssl) else { return nil }
        var data: UnsafeMutableRawPointer?
        var length = 0
        guard library.SSL_SESSION_get0_ticket_appdata(session, &data, &length) == 1, let data, length == MemoryLayout<UInt>.size else { return nil }
        return data.loadUnaligned(as: UInt.self)
    }

    private func fail(_ reason: String, ending: TLSStateMachine.Ending = .asAsked) {
        machine.fail(reason, ending: ending)
        flushPending() // the alert, when OpenSSL wrote one
        report(.failed(reason))
    }

    /// What the finished handshake agreed.
    private var handshakeSummary: TLSHandshake {
        func text(_ pointer: UnsafePointer<CChar>?) -> String? { pointer.map { String(cString: $0) } }
        var protocolName: UnsafePointer<UInt8>?
        var protocolLength: UInt32 = 0
        library.SSL_get0_alpn_selected(ssl, &protocolName, &protocolLength)
        let alpn = protocolName.map { String(decoding: UnsafeBufferPointer(start: $0, count: Int(protocolLength)), as: UTF8.self) }
        let peer = library.SSL_get1_peer_certificate(ssl).map { X509Certificate($0, library: library).subject }
        return TLSHandshake(version: text(library.SSL_get_version(ssl)) ?? "?", cipher: text(library.SSL_CIPHER_get_name(library.SSL_get_current_cipher(ssl))) ?? "?",
                            serverName: text(library.SSL_get_servername(ssl, OpenSSLConstant.Control.hostNameType)), applicationProtocol: alpn,
                            resumed: library.SSL_session_reused(ssl) == 1, clientCertificate: peer)
    }

    // MARK: Writing

    package func write(_ buffer: UnsafeRawBufferPointer) -> Socket.WriteResult {
        switch machine.write() {
        case .wouldBlock: return .wouldBlock
        case .fail(let reason): return .failed(SocketCallError(call: "TLS", address: inner.peerDescription, code: EPROTO, message: reason))
        case .closed: return .failed(SocketCallError(call: "TLS", address: inner.peerDescription, code: EPIPE))
        case .encrypt: break
        }
        // Ciphertext the socket did not take comes first; while it waits, nothing more is taken.
        // (What OpenSSL holds that no socket refused, such as session tickets, leaves with these records.)
        if pendingStart < pending.count, let error = flushPending() { return .failed(error) }
        guard pendingStart == pending.count else { return .wouldBlock }
        guard !buffer.isEmpty else { return .written(0) }
        let count = library.SSL_write(ssl, buffer.baseAddress, Int32(min(buffer.count, 64 * 1024)))
        guard count > 0 else {
            let reason = library.errorText("the TLS record layer failed")
            machine.fail(reason)
            report(.failed(reason))
            return .failed(SocketCallError(call: "TLS", address: inner.peerDescription, code: EPROTO, message: reason))
        }
        if let error = flushPending() { return .failed(error) }
        return .written(Int(count))
    }

    /// Moves OpenSSL's output to the inner transport, as far as it takes it; the rest waits in
    /// ``pending``. The inner transport's error, if it failed.
    @discardableResult
    private func flushPending() -> SocketCallError? {
        // What waits already goes first; then OpenSSL's new output is read in pieces and written
        // straight on, and only what the socket does not take is kept.
        while pendingStart < pending.count {
            let result = pending.withUnsafeBytes { inner.write(UnsafeRawBufferPointer(rebasing: $0[pendingStart...])) }
            switch result {
            case .written(let count): pendingStart += count
            case .wouldBlock:
                moveOutputToPending()
                return nil
            case .failed(let error): return error
            }
        }
        pending.removeAll(keepingCapacity: true)
        pendingStart = 0
        if let space = buffers?.outgoing {
            while true {
                let count = Int(library.BIO_read(outgoing, space.baseAddress, Int32(space.count)))
                guard count > 0 else { break }
                var written = 0
                while written < count {
                    switch inner.write(UnsafeRawBufferPointer(rebasing: space[written..<count])) {
                    case .written(let sent): written += sent
                    case .wouldBlock:
                        pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: space[written..<count]))
                        moveOutputToPending()
                        return nil
                    case .failed(let error): return error
                    }
                }
            }
        } else {
            moveOutputToPending()
        }
        if machine.outputFlushed() { inner.shutdownWrite() }
        return nil
    }

    /// Flushes OpenSSL's output when this turn of the loop ends, unless a write of the turn sends
    /// it first (each write flushes what waits before its own records): one system call, and one
    /// wake-up of the peer, for tickets and the answer that follows them.
    private func flushAtEndOfTurn() {
        // Most reads make no output at all: nothing to schedule.
        guard MemoryBIO.pending(library, outgoing) > 0 else { return }
        guard let loop else {
            flushPending()
            return
        }
        guard machine.queue(.flush) else { return }
        loop.atEndOfTurn { [weak self] in
            guard let self, machine.run(.flush) else { return }
            let hadPending = hasPendingOutput
            flushPending()
            // Ciphertext that waited for the socket is gone: a connection waiting for its output
            // to be written hears of it, as on a writable socket.
            if hadPending && !hasPendingOutput && !wanted.contains(.write) { handler?.handle(Readiness(readable: false, writable: true)) }
            if machine.isClosed { return }
            try? applyInterest()
        }
    }

    /// Keeps all of OpenSSL's output for later (the socket takes no more now).
    private func moveOutputToPending() {
        let available = MemoryBIO.pending(library, outgoing)
        guard available > 0 else { return }
        let start = pending.count
        pending.append(contentsOf: repeatElement(0, count: available))
        let read = pending.withUnsafeMutableBytes { library.BIO_read(outgoing, $0.baseAddress! + start, Int32(available)) }
        pending.removeLast(available - max(0, Int(read)))
    }

    private var effectiveInterest: Interest {
        machine.interest(wanted: wanted, hasPendingOutput: hasPendingOutput)
    }

    private func applyInterest() throws {
        guard let loop else { return }
        let interest = effectiveInterest
        guard interest != applied else { return }
        try inner.setInterest(interest, on: loop)
        applied = interest
    }

    // MARK: Ending

    package func shutdownWrite() {
        switch machine.shutdownWrite() {
        case .deferred:
            // Before the handshake is done there is no TLS to end yet: it ends once there is
            // (an empty FTP listing is sent, and shut, before its handshake finishes).
            return
        case .shutInner:
            inner.shutdownWrite()
        case .endTLS:
            // close_notify, or the truncation asked for (a bare TCP end), once what waits is written.
            endTLS()
            flushPending()
        }
    }

    package func close(reset: Bool) {
        let action = machine.closing(reset: reset)
        if action.endsTLS {
            // close_notify, as far as the socket takes it now.
            if endTLS() { flushPending() }
        }
        machine.closed()
        handler = nil
        inner.close(reset: action.reset)
    }

    /// Ends TLS as the fault plan says: `close_notify` (whether it was queued), or a note that
    /// the connection ends without it.
    @discardableResult
    private func endTLS() -> Bool {
        switch settings.faults.ending {
        case .closeNotify:
            _ = library.SSL_shutdown(ssl)
            return true
        case .withoutCloseNotify(let note):
            report(.fault(note))
            return false
        }
    }
}
