import Foundation
import MockServer

/// `--tls-ca-out FILE`: where a generated test identity's CA certificate goes, for clients to trust.
enum CertificateAuthorityFile {
    /// Writes `identity`'s CA certificate (PEM) to `path`; nothing without a path or a CA (your own certificate).
    ///
    /// - Throws: ``CommandLineError/cannotWrite(path:reason:)``.
    static func write(_ identity: TLSSettings.Identity, to path: String?) throws(CommandLineError) {
        guard let path, let pem = identity.caCertificatePEM else { return }
        do {
            try Data(pem.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw .cannotWrite(path: path, reason: (error as NSError).localizedDescription)
        }
    }
}
