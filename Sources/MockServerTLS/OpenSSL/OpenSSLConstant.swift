/// The numbers OpenSSL 3's headers define that the package passes to it or reads from it, named
/// here once (the library is loaded without its headers, so their macros are not available).
///
/// Each is spelled as OpenSSL spells it in a comment; the values are part of OpenSSL's ABI and do
/// not change between 3.x releases.
package enum OpenSSLConstant {
    /// `SSL_get_error`'s answers (`SSL_ERROR_*`).
    package enum SSLError {
        /// `SSL_ERROR_WANT_READ`: OpenSSL needs more ciphertext before it can go on.
        package static let wantRead: Int32 = 2
        /// `SSL_ERROR_ZERO_RETURN`: the peer sent `close_notify`.
        package static let zeroReturn: Int32 = 6
        /// `SSL_ERROR_WANT_CLIENT_HELLO_CB`: the ClientHello callback suspended the handshake.
        package static let wantClientHelloCallback: Int32 = 11
    }

    /// Commands of `SSL_ctrl` and `SSL_CTX_ctrl` (`SSL_CTRL_*`) and the values they take.
    package enum Control {
        /// `SSL_CTRL_SET_SESS_CACHE_MODE` (`SSL_CTX_set_session_cache_mode`).
        package static let setSessionCacheMode: Int32 = 44
        /// `SSL_CTRL_SET_TLSEXT_HOSTNAME` (`SSL_set_tlsext_host_name`): the SNI a client sends.
        package static let setServerNameIndication: Int32 = 55
        /// `SSL_CTRL_CHAIN_CERT` (`SSL_CTX_add0_chain_cert` with 0, `SSL_CTX_add1_chain_cert` with 1).
        package static let chainCertificate: Int32 = 89
        /// `SSL_CTRL_SET_MIN_PROTO_VERSION` (`SSL_CTX_set_min_proto_version`).
        package static let setMinimumVersion: Int32 = 123
        /// `SSL_CTRL_SET_MAX_PROTO_VERSION` (`SSL_CTX_set_max_proto_version`).
        package static let setMaximumVersion: Int32 = 124
        /// `SSL_SESS_CACHE_OFF`: no session cache.
        package static let sessionCacheOff = 0
        /// `TLSEXT_NAMETYPE_host_name`: the only name type of SNI.
        package static let hostNameType: Int32 = 0
        /// The `larg` of ``chainCertificate`` that makes the context take its own reference ("add1").
        package static let addReference = 1
    }

    /// Commands of `BIO_ctrl` (`BIO_CTRL_*`, `BIO_C_*`).
    package enum BIOControl {
        /// `BIO_CTRL_PENDING`: how many bytes a BIO holds.
        package static let pending: Int32 = 10
        /// `BIO_C_SET_BUF_MEM_EOF_RETURN`: what reading an empty memory BIO returns.
        package static let setEndOfFileReturn: Int32 = 130
    }

    /// Option bits of `SSL_CTX_set_options` (`SSL_OP_*`).
    package enum Option {
        /// `SSL_OP_NO_COMPRESSION`.
        package static let noCompression: UInt64 = 1 << 17
    }

    /// Modes of `SSL_CTX_set_verify` (`SSL_VERIFY_*`).
    package enum Verify {
        /// `SSL_VERIFY_PEER`: the peer's certificate is asked for and checked.
        package static let peer: Int32 = 1
        /// `SSL_VERIFY_FAIL_IF_NO_PEER_CERT`: a client that shows none fails the handshake.
        package static let failIfNoPeerCertificate: Int32 = 2
    }

    /// Protocol version numbers (`TLS1_2_VERSION`, `TLS1_3_VERSION`).
    package enum Version {
        /// `TLS1_2_VERSION`.
        package static let tls12 = 0x0303
        /// `TLS1_3_VERSION`.
        package static let tls13 = 0x0304
    }

    /// What the ClientHello callback returns (`SSL_CLIENT_HELLO_*`).
    package enum ClientHello {
        /// `SSL_CLIENT_HELLO_SUCCESS`: the handshake goes on.
        package static let success: Int32 = 1
        /// `SSL_CLIENT_HELLO_ERROR`: the handshake fails with the alert the callback set.
        package static let error: Int32 = 0
        /// `SSL_CLIENT_HELLO_RETRY`: the handshake is suspended (`SSL_ERROR_WANT_CLIENT_HELLO_CB`).
        package static let retry: Int32 = -1
    }

    /// TLS alert descriptions (`SSL_AD_*`).
    package enum Alert {
        /// `SSL_AD_HANDSHAKE_FAILURE` (40).
        package static let handshakeFailure: Int32 = 40
    }

    /// What a TLS extension callback (ALPN's selection) returns (`SSL_TLSEXT_ERR_*`).
    package enum ExtensionCallback {
        /// `SSL_TLSEXT_ERR_OK`: a protocol was chosen.
        package static let ok: Int32 = 0
        /// `SSL_TLSEXT_ERR_NOACK`: none was; the handshake goes on without ALPN.
        package static let noAcknowledgement: Int32 = 3
    }

    /// `SSL_select_next_proto`'s answer when the lists share a protocol (`OPENSSL_NPN_NEGOTIATED`).
    package static let protocolNegotiated: Int32 = 1

    /// Index 0 of a connection's `ex_data`, which `SSL_set_app_data` uses: the package keeps the
    /// connection's session tag there.
    package static let applicationDataIndex: Int32 = 0

    /// Object identifiers (`NID_*`, `EVP_PKEY_*`).
    package enum NID {
        /// `EVP_PKEY_EC` (`NID_X9_62_id_ecPublicKey`): an elliptic-curve key.
        package static let ellipticCurveKey: Int32 = 408
        /// `NID_X9_62_prime256v1`: the P-256 curve.
        package static let prime256v1: Int32 = 415
        /// `NID_subject_key_identifier`.
        package static let subjectKeyIdentifier: Int32 = 82
        /// `NID_key_usage`.
        package static let keyUsage: Int32 = 83
        /// `NID_subject_alt_name`.
        package static let subjectAltName: Int32 = 85
        /// `NID_basic_constraints`.
        package static let basicConstraints: Int32 = 87
        /// `NID_authority_key_identifier`.
        package static let authorityKeyIdentifier: Int32 = 90
        /// `NID_ext_key_usage`.
        package static let extendedKeyUsage: Int32 = 126
    }

    /// `MBSTRING_ASC`: the string type of a name entry given in ASCII.
    package static let asciiString: Int32 = 0x1001
    /// The position (`loc`) -1 of `X509_NAME_add_entry_by_txt` and `X509_add_ext`: after the last.
    package static let appendAtEnd: Int32 = -1
    /// `X509_VERSION_3` (the value 2: versions count from 0).
    package static let x509Version3 = 2
}
