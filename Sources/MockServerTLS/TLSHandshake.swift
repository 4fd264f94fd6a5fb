/// What a finished TLS handshake agreed, as the transcript shows it.
package struct TLSHandshake: Sendable, Hashable, CustomStringConvertible {
    /// The protocol version, such as `TLSv1.3`.
    package let version: String
    /// The cipher suite, such as `TLS_AES_256_GCM_SHA384`.
    package let cipher: String
    /// The host name the client asked for (SNI), if it sent one.
    package let serverName: String?
    /// The application protocol agreed through ALPN (`http/1.1`), if any.
    package let applicationProtocol: String?
    /// Whether an earlier session was resumed.
    package let resumed: Bool
    /// The subject of the client's certificate, when it sent one.
    package let clientCertificate: String?

    /// `TLSv1.3 TLS_AES_256_GCM_SHA384 sni=localhost alpn=http/1.1 resumed client=/CN=…`, the parts present.
    package var description: String {
        var parts = [version, cipher]
        if let serverName { parts.append("sni=\(serverName)") }
        if let applicationProtocol { parts.append("alpn=\(applicationProtocol)") }
        if resumed { parts.append("resumed") }
        if let clientCertificate { parts.append("client=\(clientCertificate)") }
        return parts.joined(separator: " ")
    }
}
