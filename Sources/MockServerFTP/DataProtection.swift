import MockServerTLS

/// How an FTPS data connection is protected (`PROT P`): TLS with the server's context, and, under
/// `require_ssl_reuse`, the control connection's session tag it must resume.
package struct DataProtection {
    /// The server's TLS context.
    let context: TLSContext
    /// The tag the data connection's session must have been issued with; `nil`: any session.
    let requiredSessionTag: UInt?
}
