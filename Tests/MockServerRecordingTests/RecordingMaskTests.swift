import Foundation
import Testing
@testable import MockServer
@testable import MockServerCore
@testable import MockServerHTTP
@testable import MockServerMockData
@testable import MockServerRecording

/// The masks' pure parts: which headers, query parameters, form and JSON fields are hidden, the
/// file names they give, and the hop-by-hop names a proxy drops.
@Suite("Recording: masks, file names, hop-by-hop names")
struct RecordingMaskTests {
    static func request(_ text: String) throws -> HTTPMockRequest {
        try #require(HTTPMockRequest(parsing: Array(text.utf8)), "\(text)")
    }

    @Test("credential-like headers are masked by default, by name and by fragment, in any case; --unmask-header opts one back in", arguments: [
        ("Authorization", true), ("proxy-authorization", true), ("COOKIE", true), ("Set-Cookie", true), ("X-Api-Key", true), ("api-key", true),
        ("X-Auth-Token", true), ("X-Amz-Security-Token", true), ("X-CSRF-Token", true), ("X-Session-TOKEN", true), ("My-Secret", true),
        ("X-Client-ApiKey", true), ("x-service-api-key", true), (" Authorization ", true),
        ("Content-Type", false), ("Accept", false), ("X-Request-Id", false), ("Tokenless", true), ("Api", false),
    ])
    func defaultHeaders(name: String, masked: Bool) {
        #expect(HTTPRecorder.Mask.standard.masks(header: name) == masked)
        var mask = HTTPRecorder.Mask.standard
        mask.unmaskedHeaders = [name.trimmingCharacters(in: .whitespaces).uppercased()]
        #expect(!mask.masks(header: name), "unmasked by option")
        #expect(!HTTPRecorder.Mask().masks(header: name), "an empty mask masks nothing")
    }

    @Test("a mask's header lists changed after it is made change what it masks, and what a recording writes: its prepared rule follows each list")
    func headerListsChangedLater() {
        var mask = HTTPRecorder.Mask()
        let fields: HTTPHeaderFields = ["X-Session": "s", "X-Trace-Id": "t", "Accept": "*/*"]
        #expect(!mask.masks(header: "X-Session"))
        mask.headers.append("x-session")
        #expect(mask.masks(header: "X-Session"))
        #expect(mask.masked(fields).fields.map(\.value) == ["MASKED", "t", "*/*"])
        mask.headerNameFragments = ["TRACE"]
        #expect(mask.masks(header: " x-trace-id"))
        mask.unmaskedHeaders.append("X-SESSION")
        #expect(!mask.masks(header: "X-Session"))
        mask.replacement = "***"
        #expect(mask.masked(fields).fields.map(\.value) == ["s", "***", "*/*"])
        mask.headerNameFragments.removeAll()
        #expect(!mask.masks(header: "X-Trace-Id"))
        #expect(mask.masked(fields) == fields)
        var standard = HTTPRecorder.Mask.standard
        standard.headers.append("X-Extra")
        #expect(standard != .standard)
        standard.headers.removeLast()
        #expect(standard == .standard, "the same lists, the same mask")
    }

    @Test("a mask prints what a user set, in declaration order, as before its prepared header rule was kept beside the lists")
    func description() {
        var mask = HTTPRecorder.Mask(headers: ["X-Session"], replacement: "HIDDEN", headerNameFragments: ["trace"])
        mask.unmaskedHeaders = ["X-Trace-Ok"]
        mask.jsonFields = ["pin"]
        let expected = #"Mask(headers: ["X-Session"], headerNameFragments: ["trace"], unmaskedHeaders: ["X-Trace-Ok"], "#
            + #"queryParameters: [], formFields: [], jsonFields: ["pin"], replacement: "HIDDEN")"#
        #expect("\(mask)" == expected)
        #expect(String(reflecting: mask) == "MockServerRecording.HTTPRecorder." + expected)
        var dumped = ""
        dump(mask, to: &dumped)
        #expect(!dumped.contains("headerRule") && dumped.contains("X-Trace-Ok"))
    }

    @Test("query parameters: the standard names and added ones, any case, percent-encoded names too; values only; nothing else changes")
    func query() {
        var mask = HTTPRequestMask.standard
        #expect(mask.maskedQuery("token=abc&page=2") == "token=MASKED&page=2")
        #expect(mask.maskedQuery("ACCESS_TOKEN=a&Refresh_Token=b&client%5Fsecret=c&pass%77d=d") == "ACCESS_TOKEN=MASKED&Refresh_Token=MASKED&client%5Fsecret=MASKED&pass%77d=MASKED")
        #expect(mask.maskedQuery("page=2&q=token") == nil, "a value named like a secret is not a secret's name")
        #expect(mask.maskedQuery("token&page=2") == nil, "no value, nothing to hide")
        #expect(mask.maskedQuery("token=MASKED") == nil, "already masked: unchanged")
        #expect(mask.maskedQuery("a=1&&token=x=y&") == "a=1&&token=MASKED&")
        #expect(mask.maskedQuery("sig=s") == nil)
        mask.queryParameters.append("sig")
        #expect(mask.maskedQuery("sig=s") == "sig=MASKED")
    }

    @Test("form and JSON bodies: fields masked at any depth by type; other types, broken JSON and bodies without the names are left alone")
    func bodies() throws {
        let mask = HTTPRequestMask.standard
        let form = mask.maskedBody(Array("user=ann&password=pw&apikey=k".utf8), contentType: "application/x-www-form-urlencoded; charset=utf-8")
        #expect(form.map { String(decoding: $0, as: UTF8.self) } == "user=ann&password=MASKED&apikey=MASKED")
        let json = mask.maskedBody(Array(#"{"user": "ann", "Secret": {"deep": 1}, "list": [{"token": 7}, 1.50]}"#.utf8), contentType: "application/vnd.api+json")
        #expect(json.map { String(decoding: $0, as: UTF8.self) } == #"{ "user": "ann", "Secret": "MASKED", "list": [{ "token": "MASKED" }, 1.50] }"#)
        #expect(mask.maskedBody(Array("password=pw".utf8), contentType: "text/plain") == nil)
        #expect(mask.maskedBody(Array(#"{"password": "#.utf8), contentType: "application/json") == nil)
        #expect(mask.maskedBody(Array(#"{"user": "ann"}"#.utf8), contentType: "application/json") == nil)
        #expect(HTTPRequestMask().maskedBody(Array("password=pw".utf8), contentType: "application/x-www-form-urlencoded") == nil)
    }

    @Test("a JSON body with a repeated key or a trailing comma is masked like any other, by the request mask and by a recording's: no secret stays in for the body being JSON of one kind only")
    func bodiesOfEitherKind() throws {
        let repeated = Array(#"{"user": "ann", "password": "first", "password": "second"}"#.utf8)
        let trailing = Array(#"{"user": "ann", "token": "s3cret",}"#.utf8)
        for body in [repeated, trailing] {
            let request = try #require(HTTPRequestMask.standard.maskedBody(body, contentType: "application/json"), "\(String(decoding: body, as: UTF8.self))")
            let recorded = try #require(HTTPRecorder.Mask.standard.maskedBody(body, contentType: "application/json"), "\(String(decoding: body, as: UTF8.self))")
            for text in [request, recorded].map({ String(decoding: $0, as: UTF8.self) }) {
                #expect(!text.contains("first") && !text.contains("second") && !text.contains("s3cret") && text.contains("MASKED") && text.contains("ann"), "\(text)")
            }
        }
        // Both members of a repeated key are kept, each masked, in their order.
        let request = try #require(HTTPRequestMask.standard.maskedBody(repeated, contentType: "application/json"))
        #expect(String(decoding: request, as: UTF8.self) == #"{ "user": "ann", "password": "MASKED", "password": "MASKED" }"#)
    }

    @Test("one JSON masker: a recording masks JSON as a replay does (any case, any depth), and a value masked already leaves the body as it came")
    func oneJSONMasker() throws {
        let recording = HTTPRecorder.Mask.standard
        let body = Array(#"{"a": {"TOKEN": "x"}, "b": [{"Secret": 1}]}"#.utf8)
        let written = try #require(recording.maskedJSON(body, contentType: "application/json"))
        let replayed = try #require(recording.requestMask.maskedJSON(body))
        #expect(String(decoding: written, as: UTF8.self) == JSONText.write(try JSONReader.parse(replayed), layout: .canonical))
        #expect(recording.maskedJSON(Array(#"{"a": {"token": "MASKED"}}"#.utf8), contentType: "application/json") == nil)
    }

    @Test("a masked request has the masked target and body, its Content-Length the new body's; an unmasked one is nil")
    func maskedRequest() throws {
        let original = try Self.request("POST /login?token=abc HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 11\r\n\r\npassword=pw")
        let masked = try #require(HTTPRequestMask.standard.masked(original))
        #expect(masked.target == "/login?token=MASKED" && masked.path == "/login" && masked.query == "token=MASKED")
        #expect(String(decoding: masked.body, as: UTF8.self) == "password=MASKED")
        #expect(masked.headers["Content-Type"] == "application/x-www-form-urlencoded" && masked.method == "POST")
        #expect(String(decoding: masked.raw, as: UTF8.self).contains("Content-Length: 15\r\n"))
        #expect(HTTPRequestMask.standard.masked(try Self.request("GET /a?page=1 HTTP/1.1\r\nHost: x\r\n\r\n")) == nil)
        // The file name comes from the masked request: no secret in it.
        #expect(MockDataNaming.baseNames(for: masked).first == "POST|-login?token=MASKED|password=MASKED")
    }

    @Test("control bytes never reach a file name: a decoded path's and a form body's stay %XX; other decoding is unchanged")
    func controlBytesInNames() throws {
        for (target, name) in [("/a%0Ab", "GET|-a%0Ab"), ("/a%0db%1B%07%7f", "GET|-a%0Db%1B%07%7F"), ("/caf%C3%A9%20x", "GET|-café x"), ("/%01", "GET|-%01")] {
            #expect(MockDataNaming.baseNames(for: try Self.request("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")).first == name, "\(target)")
        }
        let form = try Self.request("POST /f HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 7\r\n\r\na=1\nb=\u{7}")
        let names = MockDataNaming.baseNames(for: form)
        #expect(names.first == "POST|-f|a=1%0Ab=%07")
        #expect(names.allSatisfy { !$0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } })
    }

    @Test("hop-by-hop fields are dropped under any case and spacing, with those Connection names")
    func hopByHop() {
        var headers = HTTPHeaderFields()
        for (name, value) in [("CONNECTION", " X-Gone ,keep-alive, x-ALSO "), ("Keep-Alive", "5"), ("TE", "trailers"), ("trailer", "X"), ("UPGRADE", "h2c"),
                              ("Proxy-Connection", "close"), ("Transfer-Encoding", "chunked"), ("x-gone", "1"), ("X-Also", "2"), ("X-Kept", "3"),
                              (" te ", "trailers"), ("Content-Length", "3")] {
            headers.add(name: name, value: value)
        }
        #expect(HTTPHopByHop.endToEnd(headers).map(\.name) == ["X-Kept", "Content-Length"])
        #expect(HTTPHopByHop.endToEnd(headers, dropping: HTTPHopByHop.answer).map(\.name) == ["X-Kept"])
        // A Connection field of hop-by-hop names only, then one naming a field before it.
        let later: HTTPHeaderFields = ["Connection": "keep-alive", "X-Named": "1", "X-Kept": "2", "connection": "close, x-named"]
        #expect(HTTPHopByHop.endToEnd(later).map(\.name) == ["X-Kept"])
        // Nothing dropped: the same fields.
        let plain: HTTPHeaderFields = ["Server": "nginx", "Content-Type": "text/plain"]
        #expect(HTTPHopByHop.endToEnd(plain) == plain)
    }

    @Test("a recording's body mask: JSON in its canonical layout, a form by the request mask, any other type, no type or no body left alone; with the request mask made already or not")
    func recordingBodies() {
        let mask = HTTPRecorder.Mask.standard
        for prepared in [nil, mask.requestMask] {
            func masked(_ body: String, _ contentType: String?) -> String? {
                mask.maskedBody(Array(body.utf8), contentType: contentType, prepared: prepared).map { String(decoding: $0, as: UTF8.self) }
            }
            #expect(masked(#"{"user": "ann", "token": "t"}"#, "application/problem+json; charset=utf-8") == #"{"token":"MASKED","user":"ann"}"#)
            #expect(masked("user=ann&password=pw", " Application/X-WWW-Form-Urlencoded ; charset=utf-8") == "user=ann&password=MASKED")
            #expect(masked("password=pw", "text/plain") == nil && masked("password=pw", nil) == nil && masked("", "application/x-www-form-urlencoded") == nil)
            #expect(masked(#"{"token": "t"}"#, "text/json") == nil && masked(#"{"user": "ann"}"#, "application/json") == nil)
        }
    }

    @Test("a field the parser noted as a literal has the roles its name gives, under the standard mask and others")
    func fieldRoles() throws {
        var custom = HTTPRecorder.Mask(headers: ["Server", "date"], headerNameFragments: ["type"], unmaskedHeaders: ["X-Content-Type-Options"])
        custom.headers.append("ETag")
        for mask in [HTTPRecorder.Mask.standard, custom, HTTPRecorder.Mask()] {
            let roles = RecordingFieldRoles(mask: mask)
            for name in HTTPResponseFieldName.literals + HTTPResponseFieldName.literals.map({ $0.lowercased() }) {
                var parser = HTTPResponseParser(requestMethod: "GET")
                guard case .head(let head) = try parser.append(Array("HTTP/1.1 200 OK\r\n\(name): v\r\nContent-Length: 0\r\n\r\n".utf8)).first else {
                    Issue.record("no head")
                    continue
                }
                #expect(head.fieldIDs[0] != nil, "\(name)")
                #expect(roles.roles(of: 0, in: head.headers, ids: head.fieldIDs) == roles.roles(of: name), "\(name)")
            }
        }
        let standard = RecordingFieldRoles(mask: .standard)
        #expect(standard.roles(of: "Set-Cookie") == [.masked] && standard.roles(of: " connection ") == [.hopByHop, .connection])
        #expect(standard.roles(of: "content-length") == [.contentLength, .bodyDescription] && standard.roles(of: "Content-Location") == [.location])
        #expect(standard.roles(of: "ETag") == [.bodyDescription] && standard.roles(of: "X-Custom").isEmpty)
        #expect(RecordingFieldRoles(mask: custom).roles(of: "Content-Type") == [.masked] && RecordingFieldRoles(mask: custom).roles(of: "X-Content-Type-Options").isEmpty)
    }

    @Test("the mask file left in a folder: written with the names beyond the standard ones, merged with what it held, read back; odd lines skipped")
    func maskFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mask-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(MockDataMaskFile.read(in: folder) == nil)
        try MockDataMaskFile.write(HTTPRequestMask(), in: folder)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(MockDataMaskFile.name).path), "nothing to keep, no file")
        try MockDataMaskFile.write(HTTPRequestMask(queryParameters: ["sig"]), in: folder)
        try MockDataMaskFile.write(HTTPRequestMask(queryParameters: ["SIG"], formFields: ["pin"], jsonFields: ["pan"]), in: folder)
        let text = try String(contentsOf: folder.appendingPathComponent(MockDataMaskFile.name), encoding: .utf8)
        try Data((text + "\nfuture kind\nnonsense\n").utf8).write(to: folder.appendingPathComponent(MockDataMaskFile.name))
        #expect(MockDataMaskFile.read(in: folder) == HTTPRequestMask(queryParameters: ["sig"], formFields: ["pin"], jsonFields: ["pan"]))
    }
}
