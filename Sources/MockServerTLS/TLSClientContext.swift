/// OpenSSL's client-side context for connections this process makes (a recording proxy's to an
/// https upstream): peers are verified against the system's trust store, or the CAs of one PEM file.
///
/// `Sendable`: configured in `init` and only read afterwards; OpenSSL makes connections from one
/// context on several threads safely (``OpenSSLHandle``).
package final class TLSClientContext: Sendable {
    private let handle: OpenSSLHandle
    let library: OpenSSLLibrary

    var pointer: OpaquePointer { handle.pointer }
    /// How long a handshake may take.
    package let handshakeTimeout: Duration

    /// A context that trusts the CAs in `caFile` (PEM), or the system's store when it is `nil`.
    ///
    /// - Throws: ``TLSError`` when OpenSSL is missing or the file gives no CA.
    package init(caFile: String?, handshakeTimeout: Duration = .seconds(10)) throws(TLSError) {
        let library = try OpenSSLLibrary.load()
        guard let pointer = library.SSL_CTX_new(library.TLS_client_method()) else { throw .setupFailed(library.errorText("SSL_CTX_new failed")) }
        let trusted = caFile.map { library.SSL_CTX_load_verify_locations(pointer, $0, nil) == 1 }
            ?? (library.SSL_CTX_set_default_verify_paths(pointer) == 1)
        guard trusted else {
            let details = library.errorText("OpenSSL gave no reason")
            let reason = caFile.map { "no CA certificate could be read from \($0) (\(details))" } ?? "the system's trust store cannot be used (\(details))"
            library.SSL_CTX_free(pointer)
            throw .setupFailed(reason)
        }
        library.SSL_CTX_set_verify(pointer, OpenSSLConstant.Verify.peer, nil)
        self.handle = OpenSSLHandle(pointer)
        self.library = library
        self.handshakeTimeout = handshakeTimeout
    }

    deinit {
        library.SSL_CTX_free(pointer)
    }
}
