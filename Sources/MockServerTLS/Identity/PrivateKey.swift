/// An OpenSSL `EVP_PKEY` owned by this object (freed with it).
/// `Sendable`: the key is never changed after it is made; OpenSSL uses one key from several
/// contexts and threads safely (``OpenSSLHandle``).
package final class PrivateKey: Sendable {
    private let handle: OpenSSLHandle
    private let library: OpenSSLLibrary

    var pointer: OpaquePointer { handle.pointer }

    init(_ pointer: OpaquePointer, library: OpenSSLLibrary) {
        self.handle = OpenSSLHandle(pointer)
        self.library = library
    }

    deinit { library.EVP_PKEY_free(pointer) }

    /// A new ECDSA key on P-256.
    static func generateP256(_ library: OpenSSLLibrary) throws(TLSError) -> PrivateKey {
        guard let context = library.EVP_PKEY_CTX_new_id(OpenSSLConstant.NID.ellipticCurveKey, nil) else { throw .setupFailed(library.errorText("EVP_PKEY_CTX_new_id failed")) }
        defer { library.EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard library.EVP_PKEY_keygen_init(context) == 1, library.EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, OpenSSLConstant.NID.prime256v1) == 1,
              library.EVP_PKEY_keygen(context, &key) == 1, let key else {
            throw .setupFailed(library.errorText("P-256 key generation failed"))
        }
        return PrivateKey(key, library: library)
    }

    /// The key in unencrypted PKCS #8 PEM.
    package var pem: String {
        MemoryBIO.collect(library) { bio in library.PEM_write_bio_PrivateKey(bio, pointer, nil, nil, 0, nil, nil) == 1 }
    }
}
