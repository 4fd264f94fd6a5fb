import Testing
import MockServer

@Suite("A script's framing")
struct FramingChoiceTests {
    @Test("the scheme picks the framing, and the framing key overrides it")
    func framingChoice() throws {
        #expect(try ResponseScript(json: #"{"scheme": "webdav", "responses": {}}"#).framing == .requests)
        #expect(try ResponseScript(json: #"{"scheme": "ftp", "responses": {}}"#).framing == .lines)
        #expect(try ResponseScript(json: #"{"responses": {}}"#).framing == .lines)
        #expect(try ResponseScript(json: #"{"scheme": "http", "framing": "raw", "responses": {}}"#).framing == .raw)
        #expect(throws: ResponseFileError.self) { try ResponseScript(json: #"{"framing": "words", "responses": {}}"#) }
    }
}
