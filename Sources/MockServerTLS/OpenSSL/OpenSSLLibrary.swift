#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's OpenSSL 3, loaded when TLS is first used (`dlopen`, `dlsym`): no headers and no link
/// flags, so the package builds on a machine without them and fails only when TLS is asked for, with
/// an error that names the library and where it comes from.
///
/// The one place the package reaches OpenSSL: every function it calls is resolved here, typed as C
/// declares it (OpenSSL's structures are opaque pointers). Cryptography is OpenSSL's; nothing here
/// computes any.
package final class OpenSSLLibrary: Sendable {
    /// The library, loaded once; the error when it cannot be.
    package static let shared: Result<OpenSSLLibrary, TLSError> = {
        do throws(TLSError) { return .success(try OpenSSLLibrary()) } catch { return .failure(error) }
    }()

    /// The loaded library.
    ///
    /// - Throws: ``TLSError/libraryMissing(_:)`` naming the library and the package that provides it.
    package static func load() throws(TLSError) -> OpenSSLLibrary {
        try shared.get()
    }

    #if os(Linux)
    package static let sslNames = ["libssl.so.3"]
    package static let cryptoNames = ["libcrypto.so.3"]
    package static let missingHint = "libssl.so.3 (OpenSSL 3) was not found: install it (Debian and Ubuntu: apt-get install libssl3; Fedora: dnf install openssl-libs)"
        + "; or test URLSession through an in-process session, " + inProcessAlternative
    #elseif os(macOS)
    package static let sslNames = ["/opt/homebrew/opt/openssl@3/lib/libssl.3.dylib", "/usr/local/opt/openssl@3/lib/libssl.3.dylib"]
    package static let cryptoNames = ["/opt/homebrew/opt/openssl@3/lib/libcrypto.3.dylib", "/usr/local/opt/openssl@3/lib/libcrypto.3.dylib"]
    package static let missingHint = "TLS is not available on this platform without OpenSSL 3: install it with Homebrew (brew install openssl@3)"
        + "; or test URLSession through an in-process session, " + inProcessAlternative
    #else
    // iOS, tvOS, visionOS: no system OpenSSL, and a simulator cannot load a Mac's. An app or test
    // bundle that embeds OpenSSL 3 under these names (found on the run-path) gets TLS.
    package static let sslNames = ["libssl.3.dylib"]
    package static let cryptoNames = ["libcrypto.3.dylib"]
    package static let missingHint = "this platform has no OpenSSL 3 (libssl.3.dylib), which TLS needs: test URLSession through an in-process session instead, "
        + inProcessAlternative
    #endif
    /// The alternative every ``missingHint`` names: a session that needs no TLS at all.
    package static let inProcessAlternative = "which serves https URLs with no TLS at all (server.makeInProcessSession(), or installInProcess(in:))"

    // libssl
    let TLS_server_method: @convention(c) () -> OpaquePointer?
    let SSL_CTX_new: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let SSL_CTX_free: @convention(c) (OpaquePointer?) -> Void
    let SSL_CTX_use_certificate: @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
    let SSL_CTX_use_PrivateKey: @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
    let SSL_CTX_check_private_key: @convention(c) (OpaquePointer?) -> Int32
    let SSL_CTX_ctrl: @convention(c) (OpaquePointer?, Int32, Int, UnsafeMutableRawPointer?) -> Int
    let SSL_CTX_set_options: @convention(c) (OpaquePointer?, UInt64) -> UInt64
    let SSL_CTX_set_alpn_select_cb: @convention(c) (OpaquePointer?, ALPNSelect?, UnsafeMutableRawPointer?) -> Void
    let SSL_CTX_set_verify: @convention(c) (OpaquePointer?, Int32, OpaquePointer?) -> Void
    let SSL_CTX_set_session_id_context: @convention(c) (OpaquePointer?, UnsafePointer<UInt8>?, UInt32) -> Int32
    let SSL_CTX_get_cert_store: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let SSL_new: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let SSL_free: @convention(c) (OpaquePointer?) -> Void
    let SSL_set_bio: @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Void
    let SSL_set_accept_state: @convention(c) (OpaquePointer?) -> Void
    let SSL_do_handshake: @convention(c) (OpaquePointer?) -> Int32
    let SSL_is_init_finished: @convention(c) (OpaquePointer?) -> Int32
    let SSL_read: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32) -> Int32
    let SSL_write: @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int32) -> Int32
    let SSL_get_error: @convention(c) (OpaquePointer?, Int32) -> Int32
    let SSL_shutdown: @convention(c) (OpaquePointer?) -> Int32
    let SSL_pending: @convention(c) (OpaquePointer?) -> Int32
    let SSL_get_version: @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    let SSL_get_current_cipher: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let SSL_CIPHER_get_name: @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    let SSL_get_servername: @convention(c) (OpaquePointer?, Int32) -> UnsafePointer<CChar>?
    let SSL_get0_alpn_selected: @convention(c) (OpaquePointer?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, UnsafeMutablePointer<UInt32>?) -> Void
    let SSL_session_reused: @convention(c) (OpaquePointer?) -> Int32
    let SSL_set_num_tickets: @convention(c) (OpaquePointer?, Int) -> Int32
    // The client side (a recording proxy's upstream connections).
    let TLS_client_method: @convention(c) () -> OpaquePointer?
    let SSL_set_connect_state: @convention(c) (OpaquePointer?) -> Void
    let SSL_CTX_set_default_verify_paths: @convention(c) (OpaquePointer?) -> Int32
    let SSL_CTX_load_verify_locations: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
    let SSL_set1_host: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32
    /// Returns 0 on success, unlike most of OpenSSL.
    let SSL_set_alpn_protos: @convention(c) (OpaquePointer?, UnsafePointer<UInt8>?, UInt32) -> Int32
    let SSL_get0_param: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let X509_VERIFY_PARAM_set1_ip_asc: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> Int32
    let SSL_ctrl: @convention(c) (OpaquePointer?, Int32, Int, UnsafeMutableRawPointer?) -> Int
    let SSL_get1_peer_certificate: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let SSL_CTX_set_client_hello_cb: @convention(c) (OpaquePointer?, ClientHelloArrived?, UnsafeMutableRawPointer?) -> Void
    let SSL_CTX_set_session_ticket_cb: @convention(c) (OpaquePointer?, TicketGenerated?, OpaquePointer?, UnsafeMutableRawPointer?) -> Int32
    let SSL_get_session: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let SSL_set_ex_data: @convention(c) (OpaquePointer?, Int32, UnsafeMutableRawPointer?) -> Int32
    let SSL_get_ex_data: @convention(c) (OpaquePointer?, Int32) -> UnsafeMutableRawPointer?
    let SSL_SESSION_set1_ticket_appdata: @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int) -> Int32
    let SSL_SESSION_get0_ticket_appdata: @convention(c) (OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, UnsafeMutablePointer<Int>?) -> Int32
    let SSL_select_next_proto: @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, UnsafeMutablePointer<UInt8>?,
                                               UnsafePointer<UInt8>?, UInt32, UnsafePointer<UInt8>?, UInt32) -> Int32

    // libcrypto
    let BIO_s_mem: @convention(c) () -> OpaquePointer?
    let BIO_new: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let BIO_new_mem_buf: @convention(c) (UnsafeRawPointer?, Int32) -> OpaquePointer?
    let BIO_free: @convention(c) (OpaquePointer?) -> Int32
    let BIO_read: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32) -> Int32
    let BIO_write: @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int32) -> Int32
    let BIO_ctrl: @convention(c) (OpaquePointer?, Int32, Int, UnsafeMutableRawPointer?) -> Int
    let ERR_get_error: @convention(c) () -> UInt
    let ERR_error_string_n: @convention(c) (UInt, UnsafeMutablePointer<CChar>?, Int) -> Void
    let ERR_clear_error: @convention(c) () -> Void
    let EVP_PKEY_CTX_new_id: @convention(c) (Int32, OpaquePointer?) -> OpaquePointer?
    let EVP_PKEY_keygen_init: @convention(c) (OpaquePointer?) -> Int32
    let EVP_PKEY_CTX_set_ec_paramgen_curve_nid: @convention(c) (OpaquePointer?, Int32) -> Int32
    let EVP_PKEY_keygen: @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    let EVP_PKEY_CTX_free: @convention(c) (OpaquePointer?) -> Void
    let EVP_PKEY_free: @convention(c) (OpaquePointer?) -> Void
    let EVP_sha256: @convention(c) () -> OpaquePointer?
    let X509_new: @convention(c) () -> OpaquePointer?
    let X509_free: @convention(c) (OpaquePointer?) -> Void
    let X509_set_version: @convention(c) (OpaquePointer?, Int) -> Int32
    let X509_get_serialNumber: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let ASN1_INTEGER_set: @convention(c) (OpaquePointer?, Int) -> Int32
    let X509_getm_notBefore: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let X509_getm_notAfter: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let X509_gmtime_adj: @convention(c) (OpaquePointer?, Int) -> OpaquePointer?
    let X509_set_pubkey: @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
    let X509_get_subject_name: @convention(c) (OpaquePointer?) -> OpaquePointer?
    let X509_set_issuer_name: @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
    let X509_NAME_add_entry_by_txt: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafePointer<UInt8>?, Int32, Int32, Int32) -> Int32
    let X509_NAME_oneline: @convention(c) (OpaquePointer?, UnsafeMutablePointer<CChar>?, Int32) -> UnsafeMutablePointer<CChar>?
    let X509V3_set_ctx: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?, Int32) -> Void
    let X509V3_EXT_conf_nid: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?) -> OpaquePointer?
    let X509_add_ext: @convention(c) (OpaquePointer?, OpaquePointer?, Int32) -> Int32
    let X509_EXTENSION_free: @convention(c) (OpaquePointer?) -> Void
    let X509_sign: @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32
    let X509_STORE_add_cert: @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
    let i2d_X509: @convention(c) (OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32
    let PEM_write_bio_X509: @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
    let PEM_write_bio_PrivateKey: @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, UnsafeMutablePointer<UInt8>?, Int32,
                                                  OpaquePointer?, UnsafeMutableRawPointer?) -> Int32
    let PEM_read_bio_X509: @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?, OpaquePointer?, UnsafeMutableRawPointer?) -> OpaquePointer?
    let PEM_read_bio_PrivateKey: @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>?, OpaquePointer?, UnsafeMutableRawPointer?) -> OpaquePointer?

    /// OpenSSL's ALPN selection callback: `(ssl, out, outlen, in, inlen, arg) -> SSL_TLSEXT_ERR_*`.
    package typealias ALPNSelect = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, UnsafeMutablePointer<UInt8>?,
                                                   UnsafePointer<UInt8>?, UInt32, UnsafeMutableRawPointer?) -> Int32

    /// OpenSSL's callback when a session ticket is made: `(ssl, arg) -> 1`.
    package typealias TicketGenerated = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32

    /// OpenSSL's callback when a ClientHello has been read: `(ssl, alert, arg) -> SSL_CLIENT_HELLO_*`.
    package typealias ClientHelloArrived = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?, UnsafeMutableRawPointer?) -> Int32

    /// Loads the first of `sslNames` and of `cryptoNames` that opens (tests pass names that do not).
    package init(sslNames: [String] = OpenSSLLibrary.sslNames, cryptoNames: [String] = OpenSSLLibrary.cryptoNames) throws(TLSError) {
        guard let crypto = Self.open(cryptoNames), let ssl = Self.open(sslNames) else { throw .libraryMissing(Self.missingHint) }
        func function<T>(_ handle: UnsafeMutableRawPointer, _ name: String, _ type: T.Type = T.self) throws(TLSError) -> T {
            guard let pointer = dlsym(handle, name) else { throw .libraryMissing("the loaded OpenSSL has no \(name): OpenSSL 3.0 or later is needed") }
            return unsafeBitCast(pointer, to: T.self)
        }
        TLS_server_method = try function(ssl, "TLS_server_method")
        SSL_CTX_new = try function(ssl, "SSL_CTX_new")
        SSL_CTX_free = try function(ssl, "SSL_CTX_free")
        SSL_CTX_use_certificate = try function(ssl, "SSL_CTX_use_certificate")
        SSL_CTX_use_PrivateKey = try function(ssl, "SSL_CTX_use_PrivateKey")
        SSL_CTX_check_private_key = try function(ssl, "SSL_CTX_check_private_key")
        SSL_CTX_ctrl = try function(ssl, "SSL_CTX_ctrl")
        SSL_CTX_set_options = try function(ssl, "SSL_CTX_set_options")
        SSL_CTX_set_alpn_select_cb = try function(ssl, "SSL_CTX_set_alpn_select_cb")
        SSL_CTX_set_verify = try function(ssl, "SSL_CTX_set_verify")
        SSL_CTX_set_session_id_context = try function(ssl, "SSL_CTX_set_session_id_context")
        SSL_CTX_get_cert_store = try function(ssl, "SSL_CTX_get_cert_store")
        SSL_new = try function(ssl, "SSL_new")
        SSL_free = try function(ssl, "SSL_free")
        SSL_set_bio = try function(ssl, "SSL_set_bio")
        SSL_set_accept_state = try function(ssl, "SSL_set_accept_state")
        SSL_do_handshake = try function(ssl, "SSL_do_handshake")
        SSL_is_init_finished = try function(ssl, "SSL_is_init_finished")
        SSL_read = try function(ssl, "SSL_read")
        SSL_write = try function(ssl, "SSL_write")
        SSL_get_error = try function(ssl, "SSL_get_error")
        SSL_shutdown = try function(ssl, "SSL_shutdown")
        SSL_pending = try function(ssl, "SSL_pending")
        SSL_get_version = try function(ssl, "SSL_get_version")
        SSL_get_current_cipher = try function(ssl, "SSL_get_current_cipher")
        SSL_CIPHER_get_name = try function(ssl, "SSL_CIPHER_get_name")
        SSL_get_servername = try function(ssl, "SSL_get_servername")
        SSL_get0_alpn_selected = try function(ssl, "SSL_get0_alpn_selected")
        SSL_session_reused = try function(ssl, "SSL_session_reused")
        SSL_set_num_tickets = try function(ssl, "SSL_set_num_tickets")
        TLS_client_method = try function(ssl, "TLS_client_method")
        SSL_set_connect_state = try function(ssl, "SSL_set_connect_state")
        SSL_CTX_set_default_verify_paths = try function(ssl, "SSL_CTX_set_default_verify_paths")
        SSL_CTX_load_verify_locations = try function(ssl, "SSL_CTX_load_verify_locations")
        SSL_set1_host = try function(ssl, "SSL_set1_host")
        SSL_set_alpn_protos = try function(ssl, "SSL_set_alpn_protos")
        SSL_get0_param = try function(ssl, "SSL_get0_param")
        X509_VERIFY_PARAM_set1_ip_asc = try function(crypto, "X509_VERIFY_PARAM_set1_ip_asc")
        SSL_ctrl = try function(ssl, "SSL_ctrl")
        SSL_get1_peer_certificate = try function(ssl, "SSL_get1_peer_certificate")
        SSL_select_next_proto = try function(ssl, "SSL_select_next_proto")
        SSL_CTX_set_session_ticket_cb = try function(ssl, "SSL_CTX_set_session_ticket_cb")
        SSL_CTX_set_client_hello_cb = try function(ssl, "SSL_CTX_set_client_hello_cb")
        SSL_get_session = try function(ssl, "SSL_get_session")
        SSL_set_ex_data = try function(ssl, "SSL_set_ex_data")
        SSL_get_ex_data = try function(ssl, "SSL_get_ex_data")
        SSL_SESSION_set1_ticket_appdata = try function(ssl, "SSL_SESSION_set1_ticket_appdata")
        SSL_SESSION_get0_ticket_appdata = try function(ssl, "SSL_SESSION_get0_ticket_appdata")
        BIO_s_mem = try function(crypto, "BIO_s_mem")
        BIO_new = try function(crypto, "BIO_new")
        BIO_new_mem_buf = try function(crypto, "BIO_new_mem_buf")
        BIO_free = try function(crypto, "BIO_free")
        BIO_read = try function(crypto, "BIO_read")
        BIO_write = try function(crypto, "BIO_write")
        BIO_ctrl = try function(crypto, "BIO_ctrl")
        ERR_get_error = try function(crypto, "ERR_get_error")
        ERR_error_string_n = try function(crypto, "ERR_error_string_n")
        ERR_clear_error = try function(crypto, "ERR_clear_error")
        EVP_PKEY_CTX_new_id = try function(crypto, "EVP_PKEY_CTX_new_id")
        EVP_PKEY_keygen_init = try function(crypto, "EVP_PKEY_keygen_init")
        EVP_PKEY_CTX_set_ec_paramgen_curve_nid = try function(crypto, "EVP_PKEY_CTX_set_ec_paramgen_curve_nid")
        EVP_PKEY_keygen = try function(crypto, "EVP_PKEY_keygen")
        EVP_PKEY_CTX_free = try function(crypto, "EVP_PKEY_CTX_free")
        EVP_PKEY_free = try function(crypto, "EVP_PKEY_free")
        EVP_sha256 = try function(crypto, "EVP_sha256")
        X509_new = try function(crypto, "X509_new")
        X509_free = try function(crypto, "X509_free")
        X509_set_version = try function(crypto, "X509_set_version")
        X509_get_serialNumber = try function(crypto, "X509_get_serialNumber")
        ASN1_INTEGER_set = try function(crypto, "ASN1_INTEGER_set")
        X509_getm_notBefore = try function(crypto, "X509_getm_notBefore")
        X509_getm_notAfter = try function(crypto, "X509_getm_notAfter")
        X509_gmtime_adj = try function(crypto, "X509_gmtime_adj")
        X509_set_pubkey = try function(crypto, "X509_set_pubkey")
        X509_get_subject_name = try function(crypto, "X509_get_subject_name")
        X509_set_issuer_name = try function(crypto, "X509_set_issuer_name")
        X509_NAME_add_entry_by_txt = try function(crypto, "X509_NAME_add_entry_by_txt")
        X509_NAME_oneline = try function(crypto, "X509_NAME_oneline")
        X509V3_set_ctx = try function(crypto, "X509V3_set_ctx")
        X509V3_EXT_conf_nid = try function(crypto, "X509V3_EXT_conf_nid")
        X509_add_ext = try function(crypto, "X509_add_ext")
        X509_EXTENSION_free = try function(crypto, "X509_EXTENSION_free")
        X509_sign = try function(crypto, "X509_sign")
        X509_STORE_add_cert = try function(crypto, "X509_STORE_add_cert")
        i2d_X509 = try function(crypto, "i2d_X509")
        PEM_write_bio_X509 = try function(crypto, "PEM_write_bio_X509")
        PEM_write_bio_PrivateKey = try function(crypto, "PEM_write_bio_PrivateKey")
        PEM_read_bio_X509 = try function(crypto, "PEM_read_bio_X509")
        PEM_read_bio_PrivateKey = try function(crypto, "PEM_read_bio_PrivateKey")
    }

    /// The first of `names` that loads; the handle stays open for the life of the process.
    private static func open(_ names: [String]) -> UnsafeMutableRawPointer? {
        // Local, so that OpenSSL's names never satisfy another library's (FoundationNetworking's
        // libcurl brings its own): lookups go through the handle.
        for name in names {
            if let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) { return handle }
        }
        return nil
    }

    /// OpenSSL's queued errors as one line (and the queue emptied), or `fallback` when there are none.
    package func errorText(_ fallback: String) -> String {
        var messages: [String] = []
        var buffer = [CChar](repeating: 0, count: 256)
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages.isEmpty ? fallback : messages.joined(separator: "; ")
    }
}
