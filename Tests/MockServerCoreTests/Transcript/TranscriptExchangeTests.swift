import Foundation
import Testing
import MockServerCore

/// A transcript entry's exchange (the protocol and stream of an input that came on one of a
/// connection's several): kept as recorded, shown at the end of the entry's line, absent otherwise.
@Suite("Transcript exchange")
struct TranscriptExchangeTests {
    @Test("an input recorded with an exchange keeps it and ends its line with it; one without has none and an unchanged line")
    func recordedAndShown() {
        let transcript = Transcript()
        let input = InputUnit(bytes: Array("GET /a HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        transcript.record(.input(input, response: "hello"), connection: 1, channel: .main, exchange: Transcript.Exchange(protocolName: "HTTP/2", stream: 3))
        transcript.record(.unmatched(input), connection: 1, channel: .main, exchange: Transcript.Exchange(protocolName: "HTTP/2", stream: 5))
        transcript.record(.input(input, response: "hello"), connection: 2, channel: .main)
        let entries = transcript.entries
        #expect(entries.map(\.exchange) == [Transcript.Exchange(protocolName: "HTTP/2", stream: 3), Transcript.Exchange(protocolName: "HTTP/2", stream: 5), nil])
        #expect(entries[0].description.hasPrefix("#1 main     <- GET /a HTTP/1.1"), "\(entries[0])")
        #expect(entries[0].description.hasSuffix("  [hello]  (HTTP/2 stream 3)"), "\(entries[0])")
        #expect(entries[1].description.hasSuffix("  [UNMATCHED]  (HTTP/2 stream 5)"), "\(entries[1])")
        #expect(entries[2].description.hasSuffix("  [hello]"), "\(entries[2])")
        #expect(transcript.unmatched.map(\.exchange?.stream) == [5])
    }

    @Test("an exchange without a stream shows the protocol's name alone")
    func withoutStream() {
        #expect(Transcript.Exchange(protocolName: "HTTP/3").description == "HTTP/3")
        #expect(Transcript.Exchange(protocolName: "HTTP/2", stream: 1).description == "HTTP/2 stream 1")
    }
}
