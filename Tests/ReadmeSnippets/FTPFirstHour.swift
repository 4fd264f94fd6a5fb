import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServerTesting
import Testing

@Test func ftpDownloadAndUpload() async throws {
    try await withMockServer(responses: "ftp") { server in            // the bundled FTP script
        server.files = ["report.csv": Data("id,name\n".utf8)]
        let (data, _) = try await URLSession(configuration: .ephemeral).data(from: server.url(for: "report.csv"))
        #expect(data == Data("id,name\n".utf8))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("up-\(UUID()).txt")
        try Data("new".utf8).write(to: file)                           // uploaded here with curl -T
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try Process.run(URL(fileURLWithPath: "/usr/bin/curl"), arguments: ["-sT", file.path, server.url(for: "up.txt").absoluteString])
        #expect(try await server.waitForUpload(named: "up.txt").data == Data("new".utf8))
    }
}
