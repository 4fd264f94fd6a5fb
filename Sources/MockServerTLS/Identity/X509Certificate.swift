/// An OpenSSL `X509` owned by this object (freed with it), with what the package reads of it.
///
/// `Sendable`: the certificate is never changed after it is made and signed; OpenSSL reads a
/// finished certificate from several threads safely (``OpenSSLHandle``).
package final class X509Certificate: Sendable {
    private let handle: OpenSSLHandle
    private let library: OpenSSLLibrary

    var pointer: OpaquePointer { handle.pointer }

    init(_ pointer: OpaquePointer, library: OpenSSLLibrary) {
        self.handle = OpenSSLHandle(pointer)
        self.library = library
    }

    deinit { library.X509_free(pointer) }

    /// The certificate in DER.
    package var der: [UInt8] {
        let length = library.i2d_X509(pointer, nil)
        guard length > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        bytes.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = library.i2d_X509(pointer, &cursor)
        }
        return bytes
    }

    /// The certificate in PEM (`-----BEGIN CERTIFICATE-----` …).
    package var pem: String {
        MemoryBIO.collect(library) { bio in library.PEM_write_bio_X509(bio, pointer) == 1 }
    }

    /// The subject in OpenSSL's one-line form (`/CN=client/O=Example`).
    package var subject: String {
        var buffer = [CChar](repeating: 0, count: 512)
        _ = library.X509_NAME_oneline(library.X509_get_subject_name(pointer), &buffer, Int32(buffer.count))
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
