import MockServerHTTP2
import Testing
import TestSupport

/// The client side of one request, without sockets, against the server's own connection machine:
/// bytes from one value are the other's input.
@Suite("HTTP/2 client exchange", .cpuBound)
struct HTTP2ClientExchangeTests {
    /// The server's half: its reader, its connection machine, and the request it has read.
    struct Server {
        var reader = HTTP2FrameReader(expectingPreface: true)
        var connection: HTTP2ServerConnection
        var fields: [HPACKHeader] = []
        var body: [UInt8] = []
        var complete = false
        /// Whether the server gives back the upload's window as it reads it.
        var releases = true

        init() {
            connection = HTTP2ServerConnection()
            _ = connection.start()
        }

        /// Reads the client's bytes; returns what the server sends back.
        mutating func receive(_ bytes: [UInt8]) throws -> [UInt8] {
            reader.append(bytes)
            var output: [UInt8] = []
            while let frame = try reader.nextFrame() {
                for event in try connection.receive(frame) {
                    switch event {
                    case .send(let frame): HTTP2FrameWriter.write(frame, into: &output)
                    case .headers(_, let fields, let endStream):
                        self.fields = fields
                        complete = complete || endStream
                    case .data(let id, let bytes, let endStream):
                        body += bytes
                        complete = complete || endStream
                        if releases { for frame in connection.release(bytes.count, on: id) { HTTP2FrameWriter.write(frame, into: &output) } }
                    default: break
                    }
                }
            }
            return output
        }

        /// The response's frames: HEADERS, the body as DATA within the windows, trailers if any.
        mutating func respond(_ status: String, _ headers: [HPACKHeader], body: [UInt8], trailers: [HPACKHeader]) throws -> [UInt8] {
            var output: [UInt8] = []
            for frame in try connection.sendHeaders([HPACKHeader(":status", status)] + headers, on: 1, endStream: body.isEmpty && trailers.isEmpty) {
                HTTP2FrameWriter.write(frame, into: &output)
            }
            if !body.isEmpty {
                let (frames, sent) = connection.sendData(body[...], on: 1, endStream: trailers.isEmpty)
                #expect(sent == body.count)
                for frame in frames { HTTP2FrameWriter.write(frame, into: &output) }
            }
            if !trailers.isEmpty {
                for frame in try connection.sendHeaders(trailers, on: 1, endStream: true) { HTTP2FrameWriter.write(frame, into: &output) }
            }
            return output
        }
    }

    static let request = [HPACKHeader(":method", "POST"), HPACKHeader(":scheme", "http"), HPACKHeader(":authority", "upstream:50051"),
                          HPACKHeader(":path", "/shop.Items/Get"), HPACKHeader("content-type", "application/grpc"), HPACKHeader("te", "trailers")]

    /// Passes bytes both ways until neither side has more to say.
    static func pump(_ client: inout HTTP2ClientExchange, _ server: inout Server, first: [UInt8]) throws {
        var toServer = first
        var rounds = 0
        while !toServer.isEmpty, rounds < 100 {
            let toClient = try server.receive(toServer)
            toServer = try client.receive(toClient)
            rounds += 1
        }
    }

    @Test("a request with a body, answered with a body and trailers: the server reads the fields and body; the client reads status, headers, body and trailers")
    func exchange() throws {
        var client = HTTP2ClientExchange(fields: Self.request, body: [0, 0, 0, 0, 2, 0x08, 0x2A])
        var server = Server()
        try Self.pump(&client, &server, first: client.start())
        #expect(server.complete && server.fields == Self.request && server.body == [0, 0, 0, 0, 2, 0x08, 0x2A])
        #expect(client.response == nil)
        let answer = try server.respond("200", [HPACKHeader("content-type", "application/grpc")], body: [0, 0, 0, 0, 2, 0x08, 0x07],
                                         trailers: [HPACKHeader("grpc-status", "0")])
        _ = try client.receive(answer)
        #expect(client.response == HTTP2ClientExchange.Response(status: 200, headers: [HPACKHeader("content-type", "application/grpc")],
                                                                body: [0, 0, 0, 0, 2, 0x08, 0x07], trailers: [HPACKHeader("grpc-status", "0")]))
    }

    @Test("a 300 kB upload waits for the server's window: 65,535 bytes go first, the rest as WINDOW_UPDATEs come, with frames no larger than 16 kB")
    func uploadUnderFlowControl() throws {
        let body = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var client = HTTP2ClientExchange(fields: Self.request, body: body)
        var server = Server()
        server.releases = false
        _ = try server.receive(client.start())
        #expect(server.body.count == 65_535 && !server.complete)
        // The rest goes once the server gives back what it read, and as it reads more.
        server.releases = true
        var resume: [UInt8] = []
        for frame in server.connection.release(65_535, on: 1) { HTTP2FrameWriter.write(frame, into: &resume) }
        try Self.pump(&client, &server, first: try client.receive(resume))
        #expect(server.complete && server.body == body)
    }

    @Test("a response with no body ends on its HEADERS; an informational 100 before it is skipped")
    func headersOnly() throws {
        var client = HTTP2ClientExchange(fields: Self.request, body: [])
        var server = Server()
        try Self.pump(&client, &server, first: client.start())
        var answer: [UInt8] = []
        for frame in try server.connection.sendHeaders([HPACKHeader(":status", "100")], on: 1, endStream: false) { HTTP2FrameWriter.write(frame, into: &answer) }
        answer += try server.respond("404", [HPACKHeader("grpc-status", "5")], body: [], trailers: [])
        _ = try client.receive(answer)
        #expect(client.response == HTTP2ClientExchange.Response(status: 404, headers: [HPACKHeader("grpc-status", "5")]))
    }

    @Test("the upstream resets the stream, or goes away before it: errors naming the code")
    func refusals() throws {
        var client = HTTP2ClientExchange(fields: Self.request, body: [])
        _ = client.start()
        var reset: [UInt8] = []
        HTTP2FrameWriter.write(HTTP2Frame(streamID: 1, .rstStream(.refusedStream)), into: &reset)
        #expect(throws: HTTP2Error(.refusedStream, stream: 1, "the upstream reset the request's stream with REFUSED_STREAM")) { _ = try client.receive(reset) }
        var other = HTTP2ClientExchange(fields: Self.request, body: [])
        _ = other.start()
        var away: [UInt8] = []
        HTTP2FrameWriter.write(HTTP2Frame(streamID: 0, .goAway(lastStreamID: 0, code: .enhanceYourCalm, debugData: Array("busy".utf8))), into: &away)
        #expect(throws: HTTP2Error(.enhanceYourCalm, "the upstream sent GOAWAY ENHANCE_YOUR_CALM before answering: busy")) { _ = try other.receive(away) }
    }

    @Test("SETTINGS and PING from the peer are acknowledged")
    func acknowledgements() throws {
        var client = HTTP2ClientExchange(fields: Self.request, body: [])
        _ = client.start()
        var input: [UInt8] = []
        HTTP2FrameWriter.write(HTTP2Frame(streamID: 0, .settings([HTTP2Setting(.maxFrameSize, 32_768)], ack: false)), into: &input)
        HTTP2FrameWriter.write(HTTP2Frame(streamID: 0, .ping(42, ack: false)), into: &input)
        var expected: [UInt8] = []
        HTTP2FrameWriter.write(HTTP2Frame(streamID: 0, .settings([], ack: true)), into: &expected)
        HTTP2FrameWriter.write(HTTP2Frame(streamID: 0, .ping(42, ack: true)), into: &expected)
        #expect(try client.receive(input) == expected)
    }
}
