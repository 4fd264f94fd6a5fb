import Foundation

extension TLSSettings {
    /// What a TLS server shows its clients: a certificate, the chain above it and the private key.
    ///
    /// ``generated(hostNames:)`` makes a fresh test certificate authority and a certificate it signs
    /// for `127.0.0.1`, `::1`, `localhost` and the names given (ECDSA P-256, valid from an hour ago for
    /// 30 days); tell clients to trust ``caCertificatePEM``. ``init(certificatePEM:privateKeyPEM:)``
    /// uses your own.
    ///
    /// ```swift
    /// let identity = try TLSSettings.Identity.generated(hostNames: ["api.example.test"])
    /// try identity.caCertificatePEM?.write(toFile: "/tmp/ca.pem", atomically: true, encoding: .utf8)
    /// ```
    public struct Identity: Sendable {
        let certificate: X509Certificate
        let chain: [X509Certificate]
        let key: PrivateKey
        let authority: (certificate: X509Certificate, key: PrivateKey)?
        /// The host names and addresses the generated certificate names (empty for your own).
        public let hostNames: [String]

        /// The server's certificate in PEM.
        public var certificatePEM: String { certificate.pem }
        /// The test CA's certificate in PEM, for clients to trust (`curl --cacert`); `nil` for your own identity.
        public var caCertificatePEM: String? { authority?.certificate.pem }
        /// The test CA's certificate in DER; `nil` for your own identity.
        public var caCertificateDER: [UInt8]? { authority?.certificate.der }
        /// The private key in PEM (PKCS #8, unencrypted).
        public var privateKeyPEM: String { key.pem }

        /// A fresh test CA and a server certificate it signs for `127.0.0.1`, `::1`, `localhost` and
        /// `hostNames` (names or addresses); with `fault`, a certificate a careful client refuses
        /// (while the CA it is told to trust stays the same).
        ///
        /// - Throws: ``TLSError`` when OpenSSL 3 is missing or refuses.
        public static func generated(hostNames: [String] = [], fault: TLSSettings.CertificateFault? = nil) throws(TLSError) -> TLSSettings.Identity {
            let library = try OpenSSLLibrary.load()
            let caKey = try PrivateKey.generateP256(library)
            let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)
            let ca = try CertificateBuilder(library: library).make(
                commonName: "MockServer Test CA \(tag)", key: caKey, issuer: nil,
                extensions: [.basicConstraints("critical,CA:TRUE"), .keyUsage("critical,keyCertSign,cRLSign"), .subjectKeyIdentifier],
                notBefore: -3600, notAfter: 30 * 86_400)
            return try issued(hostNames: hostNames, fault: fault, authority: (ca, caKey), library: library)
        }

        /// A server certificate for `hostNames` (with `fault`, spoilt as ``generated(hostNames:fault:)``
        /// spoils it) signed by `authority`, an identity whose certificate is a CA's (the one
        /// `Scripts/trust-test-ca.sh` makes, read from `ca.pem` and `ca.key`): the package's tests use
        /// it to show a certificate fault to a client that trusts that CA through the system's store.
        package static func generated(hostNames: [String] = [], fault: TLSSettings.CertificateFault? = nil,
                                      signedBy authority: TLSSettings.Identity) throws(TLSError) -> TLSSettings.Identity {
            try issued(hostNames: hostNames, fault: fault, authority: (authority.certificate, authority.key), library: OpenSSLLibrary.load())
        }

        private static func issued(hostNames: [String], fault: TLSSettings.CertificateFault?, authority: (certificate: X509Certificate, key: PrivateKey),
                                   library: OpenSSLLibrary) throws(TLSError) -> TLSSettings.Identity {
            let builder = CertificateBuilder(library: library)
            let hosts = ["127.0.0.1", "::1", "localhost"] + hostNames.filter { !["127.0.0.1", "::1", "localhost"].contains($0) }
            let key = try PrivateKey.generateP256(library)
            let day = 86_400
            let validity: (notBefore: Int, notAfter: Int) = switch fault {
            case .expired: (-60 * day, -day)
            case .notYetValid: (30 * day, 60 * day)
            default: (-3600, 30 * day)
            }
            let named = fault == .wrongHost ? ["wrong.invalid"] : hosts
            let selfSigned = fault == .selfSigned
            let leaf = try builder.make(commonName: named.first == "wrong.invalid" ? "wrong.invalid" : hostNames.first ?? "localhost", key: key,
                                        issuer: selfSigned ? nil : authority,
                                        extensions: [.basicConstraints("critical,CA:FALSE"), .keyUsage("critical,digitalSignature"),
                                                     .extendedKeyUsage("serverAuth,clientAuth"), .subjectAltName(CertificateBuilder.alternativeNames(named)),
                                                     .subjectKeyIdentifier] + (selfSigned ? [] : [.authorityKeyIdentifier]),
                                        notBefore: validity.notBefore, notAfter: validity.notAfter)
            return TLSSettings.Identity(certificate: leaf, chain: [], key: key, authority: authority, hostNames: named)
        }

        /// A client certificate for `commonName`, signed by this identity's test CA, with its key (both
        /// PEM): what a client shows a server that requires one (``TLSSettings/clientCertificates``).
        ///
        /// - Throws: ``TLSError/setupFailed(_:)`` for an identity of your own (it has no test CA).
        public func clientCertificate(commonName: String) throws(TLSError) -> (certificatePEM: String, privateKeyPEM: String) {
            guard let authority else { throw .setupFailed("your own identity has no test CA to sign a client certificate") }
            let library = try OpenSSLLibrary.load()
            let key = try PrivateKey.generateP256(library)
            let certificate = try CertificateBuilder(library: library).make(
                commonName: commonName, key: key, issuer: authority,
                extensions: [.basicConstraints("critical,CA:FALSE"), .keyUsage("critical,digitalSignature"), .extendedKeyUsage("clientAuth"),
                             .subjectKeyIdentifier, .authorityKeyIdentifier],
                notBefore: -3600, notAfter: 30 * 86_400)
            return (certificate.pem, key.pem)
        }

        /// Your own identity: a PEM certificate (the server's first, then any intermediates) and its
        /// PEM private key.
        ///
        /// - Throws: ``TLSError/badPEM(_:)`` naming what could not be read.
        public init(certificatePEM: String, privateKeyPEM: String) throws(TLSError) {
            let library = try OpenSSLLibrary.load()
            var certificates: [X509Certificate] = []
            MemoryBIO.reading(library, certificatePEM) { bio in
                while let pointer = library.PEM_read_bio_X509(bio, nil, nil, nil) {
                    certificates.append(X509Certificate(pointer, library: library))
                }
            }
            library.ERR_clear_error()
            guard let first = certificates.first else { throw .badPEM("no certificate in the PEM text (it needs -----BEGIN CERTIFICATE-----)") }
            guard let keyPointer = MemoryBIO.reading(library, privateKeyPEM, { library.PEM_read_bio_PrivateKey($0, nil, nil, nil) }) ?? nil else {
                throw .badPEM(library.errorText("no private key in the PEM text"))
            }
            self.init(certificate: first, chain: Array(certificates.dropFirst()), key: PrivateKey(keyPointer, library: library), authority: nil, hostNames: [])
        }

        /// Your own identity from PEM files.
        ///
        /// - Throws: ``TLSError/badPEM(_:)`` naming the file that could not be read.
        public init(certificateFile: String, privateKeyFile: String) throws(TLSError) {
            func text(_ path: String) throws(TLSError) -> String {
                guard let data = FileManager.default.contents(atPath: path) else { throw .badPEM("\(path) cannot be read") }
                return String(decoding: data, as: UTF8.self)
            }
            try self.init(certificatePEM: try text(certificateFile), privateKeyPEM: try text(privateKeyFile))
        }

        private init(certificate: X509Certificate, chain: [X509Certificate], key: PrivateKey, authority: (certificate: X509Certificate, key: PrivateKey)?,
                     hostNames: [String]) {
            self.certificate = certificate
            self.chain = chain
            self.key = key
            self.authority = authority
            self.hostNames = hostNames
        }
    }
}
