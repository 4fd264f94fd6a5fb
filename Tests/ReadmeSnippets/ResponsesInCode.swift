import MockServer
import Testing

@Test func responsesInCode() async throws {
    let responder = PatternResponder([
        try ResponseEntry("banner", pattern: "«initial»", commands: [.send("220 $address ready\r\n")]),
        try ResponseEntry("user", pattern: "^USER (\\w+)", commands: [.send("331 Hello $1\r\n")]),
        try ResponseEntry("slow", pattern: "^LIST", commands: [.pause(.seconds(2)), .send("150 Here it comes\r\n")]),
        try ResponseEntry("quit", pattern: "^QUIT", commands: [.send("221 Bye\r\n"), .close]),
    ])
    let server = MockServer(responder: responder, configuration: .init(host: "127.0.0.1", maximumLineLength: 4096))
    try await server.start()
    #expect(server.port != 0)
    await server.stop()
}
