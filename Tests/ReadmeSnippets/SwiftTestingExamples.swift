import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServerTesting
import Testing

@Test func downloadsOverFTP() async throws {
    try await withMockServer(responses: "ftp") { server in
        server.files = ["report.csv": Data("id,name\n1,Ada\n".utf8)]
        let (data, _) = try await URLSession(configuration: .ephemeral).data(from: server.url(for: "report.csv"))
        #expect(data == Data("id,name\n1,Ada\n".utf8))
        try await server.transcript.waitForInput(matching: "^RETR report\\.csv")
    }
}

@Test func httpGetThenFailureSet() async throws {
    // Tests/MyTests/Responses/hello-http.json (shown below), with resources: [.copy("Responses")].
    try await withMockServer(responses: "hello-http", in: .module) { server in
        let (body, response) = try await URLSession.shared.data(from: server.url(for: "greeting"))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(body == Data("hello\n".utf8))

        try server.useResponseSet("down")
        let (_, failed) = try await URLSession.shared.data(from: server.url(for: "greeting"))
        #expect((failed as? HTTPURLResponse)?.statusCode == 503)
    }
}
