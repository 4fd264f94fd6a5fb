import MockServerTLS
import Testing

/// The loader's failure when OpenSSL 3 is absent (every iOS simulator without an embedded copy).
@Suite("OpenSSL library")
struct OpenSSLLibraryTests {
    @Test func aMissingLibraryNamesTheInProcessAlternative() {
        #expect {
            _ = try OpenSSLLibrary(sslNames: ["libssl-not-here.so.3"], cryptoNames: ["libcrypto-not-here.so.3"])
        } throws: { error in
            guard case .libraryMissing(let text) = error as? TLSError else { return false }
            // The install hint of this platform, then the session that needs no TLS.
            return text.contains("OpenSSL 3") && text.contains("in-process session") && text.contains("makeInProcessSession()")
                && "\(error)".hasPrefix("TLS unavailable: ")
        }
    }
}
