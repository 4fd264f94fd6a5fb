import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServerTesting
import XCTest

final class DownloadTests: MockServerTestCase {
    func testDownloadThenFailureSet() async throws {
        let server = try setUpServer(responses: "ftp")           // or bundle: .module for your own files
        server.data = Data("hello".utf8)
        let (data, _) = try await URLSession(configuration: .ephemeral).data(from: url(for: "file.txt"))
        XCTAssertEqual(data, Data("hello".utf8))

        try useResponseSet("file missing")
        do {
            _ = try await URLSession(configuration: .ephemeral).data(from: url(for: "file.txt"))
            XCTFail("a missing file should fail the download")
        } catch {
            try await server.transcript.waitForInput(matching: "^(SIZE|RETR) file\\.txt")
        }
    }
}
