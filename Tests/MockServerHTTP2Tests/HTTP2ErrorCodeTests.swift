import Testing
import MockServerHTTP
import MockServerHTTP2

/// The error codes' names come from HTTP's one list (`HTTPStreamFault.errorNames`), which endpoints
/// files, scripts and stubs are checked against: each named constant has the code of its name.
@Suite("HTTP/2 error codes")
struct HTTP2ErrorCodeTests {
    @Test("every named code has its RFC 9113 §7 number and name; unknown codes and names")
    func names() {
        let named: [HTTP2ErrorCode] = [.noError, .protocolError, .internalError, .flowControlError, .settingsTimeout, .streamClosed,
                                       .frameSizeError, .refusedStream, .cancel, .compressionError, .connectError, .enhanceYourCalm,
                                       .inadequateSecurity, .http11Required]
        #expect(named.map(\.rawValue) == Array(0...13))
        #expect(named.map(\.description) == HTTPStreamFault.errorNames)
        #expect(HTTPStreamFault.errorNames.map { HTTP2ErrorCode(name: $0) } == named)
        #expect(HTTP2ErrorCode(name: "CANCELLED") == nil)
        #expect(HTTP2ErrorCode(rawValue: 0x1F).description == "0x1f")
    }
}
