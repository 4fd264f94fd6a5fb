/// Makes and signs X.509 certificates with OpenSSL: a test CA's own, and the leaves it signs.
package struct CertificateBuilder {
    /// An extension by OpenSSL's NID and its configuration text (`critical,CA:TRUE`).
    struct Extension {
        let nid: Int32
        let value: String

        static func basicConstraints(_ value: String) -> Extension { Extension(nid: OpenSSLConstant.NID.basicConstraints, value: value) }
        static func keyUsage(_ value: String) -> Extension { Extension(nid: OpenSSLConstant.NID.keyUsage, value: value) }
        static func extendedKeyUsage(_ value: String) -> Extension { Extension(nid: OpenSSLConstant.NID.extendedKeyUsage, value: value) }
        static func subjectAltName(_ value: String) -> Extension { Extension(nid: OpenSSLConstant.NID.subjectAltName, value: value) }
        static let subjectKeyIdentifier = Extension(nid: OpenSSLConstant.NID.subjectKeyIdentifier, value: "hash")
        static let authorityKeyIdentifier = Extension(nid: OpenSSLConstant.NID.authorityKeyIdentifier, value: "keyid:always")
    }

    let library: OpenSSLLibrary

    /// A certificate for `key` named `commonName`, valid from `notBefore` to `notAfter` seconds
    /// from now, signed by `issuer` (its certificate and key), or self-signed when `issuer` is nil.
    func make(commonName: String, key: PrivateKey, issuer: (certificate: X509Certificate, key: PrivateKey)?, extensions: [Extension],
              notBefore: Int, notAfter: Int) throws(TLSError) -> X509Certificate {
        guard let pointer = library.X509_new() else { throw .setupFailed(library.errorText("X509_new failed")) }
        let certificate = X509Certificate(pointer, library: library)
        let serial = Int(UInt64.random(in: 1...UInt64(Int.max)))
        let name = library.X509_get_subject_name(pointer)
        var made = library.X509_set_version(pointer, OpenSSLConstant.x509Version3) == 1
            && library.ASN1_INTEGER_set(library.X509_get_serialNumber(pointer), serial) == 1
            && library.X509_gmtime_adj(library.X509_getm_notBefore(pointer), notBefore) != nil
            && library.X509_gmtime_adj(library.X509_getm_notAfter(pointer), notAfter) != nil
            && library.X509_set_pubkey(pointer, key.pointer) == 1
        for (field, value) in [("O", "MockServer"), ("CN", commonName)] where made {
            made = Array(value.utf8).withUnsafeBufferPointer { library.X509_NAME_add_entry_by_txt(name, field, OpenSSLConstant.asciiString, $0.baseAddress, Int32($0.count), OpenSSLConstant.appendAtEnd, 0) } == 1
        }
        made = made && library.X509_set_issuer_name(pointer, library.X509_get_subject_name(issuer?.certificate.pointer ?? pointer)) == 1
        guard made else { throw .setupFailed(library.errorText("the certificate's fields could not be set")) }
        // OpenSSL's X509V3_CTX is a small structure the caller provides; 256 zeroed bytes hold it
        // with room to spare (OpenSSL 3 needs 64).
        let context = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 16)
        defer { context.deallocate() }
        context.initializeMemory(as: UInt8.self, repeating: 0, count: 256)
        library.X509V3_set_ctx(context, issuer?.certificate.pointer ?? pointer, pointer, nil, nil, 0)
        for item in extensions {
            guard let made = library.X509V3_EXT_conf_nid(nil, context, item.nid, item.value) else {
                throw .setupFailed(library.errorText("the extension \(item.value) could not be made"))
            }
            defer { library.X509_EXTENSION_free(made) }
            guard library.X509_add_ext(pointer, made, OpenSSLConstant.appendAtEnd) == 1 else { throw .setupFailed(library.errorText("the extension \(item.value) could not be added")) }
        }
        guard library.X509_sign(pointer, (issuer?.key ?? key).pointer, library.EVP_sha256()) > 0 else {
            throw .setupFailed(library.errorText("the certificate could not be signed"))
        }
        return certificate
    }

    /// The `subjectAltName` value naming `hosts`: `IP:` for addresses, `DNS:` for names.
    static func alternativeNames(_ hosts: [String]) -> String {
        hosts.map { host in
            let isAddress = host.contains(":") || (host.split(separator: ".").count == 4 && host.split(separator: ".").allSatisfy { UInt8($0) != nil })
            return (isAddress ? "IP:" : "DNS:") + host
        }.joined(separator: ",")
    }
}
