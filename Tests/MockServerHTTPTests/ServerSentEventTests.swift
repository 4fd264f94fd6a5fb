import MockServerHTTP
import Testing

/// One server-sent event as the WHATWG event stream writes it: the one model behind a stub's
/// events, an endpoints file's and a script's, and the pieces a streamed body sends.
@Suite("Server-sent events")
struct ServerSentEventTests {
    @Test("fields go out in order: comment lines, id, event, a data line per line, retry, then the blank line")
    func fieldsInOrder() {
        let event = HTTPMockResponse.ServerSentEvent(id: "7", event: "tick", data: "a\nb", retry: 3000, comment: "one\ntwo")
        #expect(event.text == ": one\n: two\nid: 7\nevent: tick\ndata: a\ndata: b\nretry: 3000\n\n")
    }

    @Test("CR LF and CR in the data are line ends, as a client reads them", arguments: ["a\r\nb", "a\rb", "a\nb"])
    func lineEnds(data: String) {
        #expect(HTTPMockResponse.ServerSentEvent(data: data).text == "data: a\ndata: b\n\n")
    }

    @Test("empty data is one empty data line; a lone comment is a keep-alive")
    func edges() {
        #expect(HTTPMockResponse.ServerSentEvent(data: "").text == "data: \n\n")
        #expect(HTTPMockResponse.ServerSentEvent(data: "a\n").text == "data: a\ndata: \n\n")
        #expect(HTTPMockResponse.ServerSentEvent(comment: "keep-alive").text == ": keep-alive\n\n")
    }
}
