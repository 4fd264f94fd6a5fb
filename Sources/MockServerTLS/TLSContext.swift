/// One listener's OpenSSL context (`SSL_CTX`): its identity, versions and application protocols,
/// made once and shared by every connection it accepts.
///
/// The context is configured in `init` and only read afterwards; OpenSSL makes connections from
/// one context on several threads safely.
/// Kept: holds a C pointer and the ALPN buffer OpenSSL's callback reads, neither `Sendable`.
package final class TLSContext: @unchecked Sendable {
    let pointer: OpaquePointer
    let library: OpenSSLLibrary
    /// The configuration it was made from.
    package let configuration: TLSSettings
    /// ALPN's wire form of the protocols offered (length-prefixed names), kept for the callback.
    private let applicationProtocols: UnsafeMutableBufferPointer<UInt8>?

    /// A server context for `configuration`, offering `applicationProtocols` through ALPN
    /// (`["http/1.1"]` for HTTP; none for line protocols).
    package init(_ configuration: TLSSettings, applicationProtocols names: [String] = []) throws(TLSError) {
        let library = try OpenSSLLibrary.load()
        guard let pointer = library.SSL_CTX_new(library.TLS_server_method()) else { throw .setupFailed(library.errorText("SSL_CTX_new failed")) }
        self.pointer = pointer
        self.library = library
        self.configuration = configuration
        if names.isEmpty {
            applicationProtocols = nil
        } else {
            // A zero after the names ends the list for the callback's walk.
            let wire = Self.applicationProtocolList(names) + [0]
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: wire.count)
            _ = buffer.initialize(from: wire)
            applicationProtocols = buffer
        }
        let identity = configuration.identity
        let setControl: (Int32, Int) -> Bool = { library.SSL_CTX_ctrl(pointer, $0, $1, nil) == 1 }
        _ = library.SSL_CTX_set_options(pointer, OpenSSLConstant.Option.noCompression)
        var ready = library.SSL_CTX_use_certificate(pointer, identity.certificate.pointer) == 1
            && library.SSL_CTX_use_PrivateKey(pointer, identity.key.pointer) == 1
            && library.SSL_CTX_check_private_key(pointer) == 1
        for extra in identity.chain where ready {
            // SSL_CTX_add1_chain_cert: the context takes its own reference.
            ready = library.SSL_CTX_ctrl(pointer, OpenSSLConstant.Control.chainCertificate, OpenSSLConstant.Control.addReference, UnsafeMutableRawPointer(extra.pointer)) == 1
        }
        if let minimum = configuration.minimumVersion { ready = ready && setControl(OpenSSLConstant.Control.setMinimumVersion, minimum.openSSLValue) }
        if let maximum = configuration.maximumVersion { ready = ready && setControl(OpenSSLConstant.Control.setMaximumVersion, maximum.openSSLValue) }
        // No server-side session cache: resumption uses tickets, which keep no state here (a cache
        // costs every full handshake an insert and a periodic sweep, under a lock).
        _ = library.SSL_CTX_ctrl(pointer, OpenSSLConstant.Control.setSessionCacheMode, OpenSSLConstant.Control.sessionCacheOff, nil)
        let sessionContext = Array("mockserver".utf8)
        ready = ready && library.SSL_CTX_set_session_id_context(pointer, sessionContext, UInt32(sessionContext.count)) == 1
        if ready && configuration.clientCertificates != .none {
            ready = Self.trustClientCAs(configuration, context: pointer, library: library)
            let failIfNone = configuration.clientCertificates == .required ? OpenSSLConstant.Verify.failIfNoPeerCertificate : 0
            library.SSL_CTX_set_verify(pointer, OpenSSLConstant.Verify.peer | failIfNone, nil)
        }
        guard ready else {
            let reason = library.errorText(configuration.clientCertificates != .none
                ? "no CA to check client certificates against: give trustedClientCAs (PEM), or use a generated identity"
                : "the context refused the identity or the versions")
            library.SSL_CTX_free(pointer)
            applicationProtocols?.deallocate()
            throw .setupFailed(reason)
        }
        // Every ticket carries the session tag of the connection it was issued on, so that a later
        // connection that resumes with it can be told where its session came from.
        _ = library.SSL_CTX_set_session_ticket_cb(pointer, Self.ticketGenerated, nil, nil)
        if let fault = configuration.handshakeFault {
            library.SSL_CTX_set_client_hello_cb(pointer, Self.clientHelloArrived, UnsafeMutableRawPointer(bitPattern: fault == .alert ? Self.alertArgument : Self.suspendArgument))
        }
        if let applicationProtocols {
            library.SSL_CTX_set_alpn_select_cb(pointer, Self.selectApplicationProtocol, UnsafeMutableRawPointer(applicationProtocols.baseAddress))
        }
    }

    /// ALPN's wire form of `names` (RFC 7301 §3.1): each name after its length in one byte.
    static func applicationProtocolList(_ names: [String]) -> [UInt8] {
        var wire: [UInt8] = []
        for name in names { wire += [UInt8(name.utf8.count)] + Array(name.utf8) }
        return wire
    }

    /// Puts the CAs client certificates must chain to in the context's store.
    private static func trustClientCAs(_ configuration: TLSSettings, context: OpaquePointer, library: OpenSSLLibrary) -> Bool {
        let store = library.SSL_CTX_get_cert_store(context)
        guard let pems = configuration.trustedClientCAs else {
            guard let authority = configuration.identity.authority else { return false }
            return library.X509_STORE_add_cert(store, authority.certificate.pointer) == 1
        }
        for pem in pems {
            var added = false
            MemoryBIO.reading(library, pem) { bio in
                while let certificate = library.PEM_read_bio_X509(bio, nil, nil, nil) {
                    added = library.X509_STORE_add_cert(store, certificate) == 1 || added
                    library.X509_free(certificate)
                }
            }
            library.ERR_clear_error()
            guard added else { return false }
        }
        return true
    }

    deinit {
        library.SSL_CTX_free(pointer)
        applicationProtocols?.deallocate()
    }

    /// OpenSSL's ticket callback: the connection's tag (its app data) goes into the ticket. A
    /// resumed session keeps the tag it came with: the tickets of a connection that resumed the
    /// control connection's session still name the control connection.
    private static let ticketGenerated: OpenSSLLibrary.TicketGenerated = { ssl, _ in
        guard case .success(let library) = OpenSSLLibrary.shared, let tag = library.SSL_get_ex_data(ssl, OpenSSLConstant.applicationDataIndex) else { return 1 }
        let session = library.SSL_get_session(ssl)
        var existing: UnsafeMutableRawPointer?
        var length = 0
        if library.SSL_SESSION_get0_ticket_appdata(session, &existing, &length) == 1, length > 0 { return 1 }
        var value = UInt(bitPattern: tag)
        _ = withUnsafeBytes(of: &value) { library.SSL_SESSION_set1_ticket_appdata(library.SSL_get_session(ssl), $0.baseAddress, $0.count) }
        return 1
    }

    /// The ClientHello callback's argument for ``TLSSettings.HandshakeFault/alert``: fail with the alert.
    private static let alertArgument = 1
    /// The ClientHello callback's argument for the other faults: suspend the handshake.
    private static let suspendArgument = 2

    /// OpenSSL's ClientHello callback, set for a ``TLSSettings.HandshakeFault``: for ``TLSSettings.HandshakeFault/alert``
    /// (``alertArgument``) the handshake fails with a fatal `handshake_failure` alert, which OpenSSL sends;
    /// otherwise it is suspended, and the transport hangs or resets (SSL_ERROR_WANT_CLIENT_HELLO_CB).
    private static let clientHelloArrived: OpenSSLLibrary.ClientHelloArrived = { _, alert, argument in
        guard Int(bitPattern: argument) == alertArgument else { return OpenSSLConstant.ClientHello.retry }
        alert?.pointee = OpenSSLConstant.Alert.handshakeFailure
        return OpenSSLConstant.ClientHello.error
    }

    /// OpenSSL's ALPN callback: the first of the client's protocols the server offers, or none
    /// (the handshake goes on without ALPN, as RFC 7301 allows a server to).
    private static let selectApplicationProtocol: OpenSSLLibrary.ALPNSelect = { _, out, outLength, offered, offeredLength, argument in
        guard case .success(let library) = OpenSSLLibrary.shared, let argument, let out, let outLength else { return OpenSSLConstant.ExtensionCallback.noAcknowledgement }
        let ours = argument.assumingMemoryBound(to: UInt8.self)
        // The list's length: a walk over its length-prefixed names, to the zero after them.
        var total = 0
        while ours[total] != 0 { total += Int(ours[total]) + 1 }
        var chosen: UnsafeMutablePointer<UInt8>?
        var chosenLength: UInt8 = 0
        let result = library.SSL_select_next_proto(&chosen, &chosenLength, ours, UInt32(total), offered, offeredLength)
        guard result == OpenSSLConstant.protocolNegotiated, let chosen else { return OpenSSLConstant.ExtensionCallback.noAcknowledgement }
        out.pointee = UnsafePointer(chosen)
        outLength.pointee = chosenLength
        return OpenSSLConstant.ExtensionCallback.ok
    }
}
