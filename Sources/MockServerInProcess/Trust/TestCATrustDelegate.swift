#if canImport(Security)
import Foundation
import Security

/// The delegate of ``MockServer/trustingSession(configuration:)`` on Apple platforms: it answers
/// each server-trust challenge by evaluating the server's chain with one extra anchor, the mock's
/// test CA, besides the system's roots (`SecTrustSetAnchorCertificatesOnly(trust, false)`), under
/// the SSL policy for the challenge's host (so the name is checked as usual). A chain that passes
/// is used; one that does not is left to URLSession's default handling, which refuses it with the
/// error a plain session gives (`serverCertificateUntrusted`, `serverCertificateHasBadDate`, …).
/// Every other challenge (HTTP authentication, client certificates) gets the default handling.
final class TestCATrustDelegate: NSObject, URLSessionDelegate, Sendable {
    /// The test CA's certificate in DER.
    let anchor: Data

    init(anchor: Data) {
        self.anchor = anchor
    }

    func urlSession(_ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
                    completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        let space = challenge.protectionSpace
        guard space.authenticationMethod == NSURLAuthenticationMethodServerTrust, let trust = space.serverTrust,
              let certificate = SecCertificateCreateWithData(nil, anchor as CFData) else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        // The anchors are added to this challenge's trust object only: nothing process-wide changes.
        guard SecTrustSetPolicies(trust, SecPolicyCreateSSL(true, space.host as CFString)) == errSecSuccess,
              SecTrustSetAnchorCertificates(trust, [certificate] as CFArray) == errSecSuccess,
              SecTrustSetAnchorCertificatesOnly(trust, false) == errSecSuccess,
              SecTrustEvaluateWithError(trust, nil) else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        completionHandler(.useCredential, URLCredential(trust: trust))
    }
}
#endif
