import Foundation
import Testing
import TestSupport

/// The dashboard of `mockserver --admin` as a browser gets it: its Content-Security-Policy checked
/// against the page it serves, and the page opened by headless Chromium with the plain commands
/// (`--dump-dom`, `--screenshot`), which take the page as it is at its load event.
@Suite("mockserver --admin: the dashboard page", .offPool)
struct AdminDashboardTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Chromium, which CI installs.
    static let hasChromium = Tools.hasCurl && Tools.hasPython && Tools.path(of: "chromium") != nil

    /// A running `mockserver --admin ARGUMENTS`: the mock's port and the admin address (`http://127.0.0.1:PORT/`).
    static func start(_ arguments: [String]) throws -> (RunningCommand, port: Int, admin: String) {
        let command = try RunningCommand(["--admin"] + arguments)
        // mockserver listening on 127.0.0.1:PORT[ (data port N)]
        let address = command.firstLine.split(separator: " ").dropFirst(3).first ?? ""
        let port = try #require(address.split(separator: ":").last.flatMap { Int($0) }, "first line: \(command.firstLine)")
        let admin = try #require(command.nextLine().split(separator: " ").last.map(String.init))
        return (command, port, admin)
    }

    /// The text of the first element written exactly `<tag>` (no attributes) in `page`.
    static func elementText(_ tag: String, in page: String) -> String? {
        guard let open = page.range(of: "<\(tag)>"), let close = page.range(of: "</\(tag)>", range: open.upperBound..<page.endIndex) else { return nil }
        return String(page[open.upperBound..<close.lowerBound])
    }

    /// The base64 SHA-256 of `text`'s UTF-8, as Python's hashlib computes it (not the server's own code).
    static func pythonSHA256(_ text: String) throws -> String {
        let result = try Tools.run("python3", ["-c", "import base64, hashlib, sys; print(base64.b64encode(hashlib.sha256(sys.stdin.buffer.read()).digest()).decode())"],
                                   input: text)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("the page's Content-Security-Policy allows only the script and style it serves, by their SHA-256 (as Python computes it); no 'unsafe-inline', no inline handler",
          .enabled(if: Tools.hasCurl && Tools.hasPython))
    func policyPinsTheServedScript() throws {
        let (command, port, admin) = try Self.start([])
        defer { _ = command.terminate() }
        #expect(try Tools.curl(["ftp://127.0.0.1:\(port)/x"]).stdout == "Hello from MockServer!\n")
        // Something in the first state that would end a <script> element if it were not escaped.
        _ = try Tools.curl(["-s", "-X", "PUT", "-H", "Content-Type: application/octet-stream", "--data-binary", "x", admin + "files/a%3C%2Fscript%3E%3Cb%3E.txt"])
        let response = try Tools.curl(["-s", "-D", "-", admin]).stdout
        let parts = response.components(separatedBy: "\r\n\r\n")
        let (head, page) = (parts[0], parts.dropFirst().joined(separator: "\r\n\r\n"))
        let policy = try #require(head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("content-security-policy:") })
        var directives: [String: [String]] = [:]
        for directive in policy.dropFirst("content-security-policy:".count).split(separator: ";") {
            let words = directive.split(separator: " ").map(String.init)
            if let name = words.first { directives[name] = Array(words.dropFirst()) }
        }
        let script = try #require(Self.elementText("script", in: page), "no <script> in \(page.prefix(300))")
        let style = try #require(Self.elementText("style", in: page))
        #expect(script.contains("addEventListener") && style.contains("box-sizing"))
        #expect(directives["script-src"] == ["'sha256-\(try Self.pythonSHA256(script))'"], "\(policy)")
        #expect(directives["style-src"] == ["'sha256-\(try Self.pythonSHA256(style))'"], "\(policy)")
        #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval"), "\(policy)")
        #expect(directives["default-src"] == ["'self'"] && directives["object-src"] == ["'none'"], "\(policy)")
        // No handler attribute (onclick=…), which the policy would block: the script adds listeners.
        #expect(page.range(of: #"\son[a-z]+\s*="#, options: .regularExpression) == nil)
        // The first state is inside the page, and a file name cannot close its element: only the
        // data block and the script end with </script>.
        #expect(page.components(separatedBy: "</script>").count == 3)
        #expect(page.contains(#"<script type="application/json" id="first-state">"#) && page.contains(#"/a\u003c/script>\u003cb>.txt"#))
        #expect(page.contains(#""event":"connected""#))
    }

    @Test("chromium --headless --dump-dom shows the first state as the page's script drew it under its policy: the mock, transcript, stubs, files, unmatched counted once",
          .enabled(if: hasChromium))
    func dumpDOMShowsFirstState() throws {
        let (command, port, admin) = try Self.start([Self.root.appendingPathComponent("Responses/endpoints.json").path])
        defer { _ = command.terminate() }
        #expect(try Tools.curl(["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/config/7"]).stdout == "200")
        for path in ["/nothing/one", "/nothing/two"] {
            #expect(try Tools.curl(["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)\(path)"]).stdout == "500")
        }
        _ = try Tools.curl(["-s", "-X", "PUT", "-H", "Content-Type: application/octet-stream", "--data-binary", "hello", admin + "files/a%3C%2Fscript%3E.txt"])
        let profile = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: profile) }
        let result = try Tools.run("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--user-data-dir=\(profile.path)",
                                                "--dump-dom", admin], timeout: 90)
        let dom = result.stdout
        #expect(result.status == 0, "\(result.stderr)")
        // Only the script writes these: it ran, under the page's policy.
        #expect(dom.contains(#"<p id="info">stub server on 127.0.0.1:\#(port)</p>"#), "\(dom)")
        #expect(dom.contains(#"<span id="status" role="status" aria-live="polite" class="">live</span>"#))
        #expect(dom.contains("GET /config/7") && dom.contains("GET /nothing/two"))
        #expect(dom.contains("<td>GET /config/:version</td><td class=\"number\">1</td>"), "\(dom)")
        #expect(dom.contains("<td>/a&lt;/script&gt;.txt</td><td class=\"number\">5</td>"), "\(dom)")
        // Each unmatched request once, in the count and in the list (one report each).
        #expect(dom.contains(#"<small id="unmatched-count">2</small>"#), "\(dom)")
        #expect(dom.components(separatedBy: "<li class=\"unmatched\"><strong>").count == 3)
        #expect(dom.contains(#"<small id="transcript-count">"#) && !dom.contains(#"<small id="transcript-count">0 entries</small>"#))
    }

    @Test("chromium --headless --screenshot (the command Docs/Admin.md gives) returns and pictures the page with its transcript drawn, not an empty list", .enabled(if: hasChromium))
    func screenshotIsNotBlank() throws {
        let (command, port, admin) = try Self.start([])
        defer { _ = command.terminate() }
        #expect(try Tools.curl(["ftp://127.0.0.1:\(port)/x"]).stdout == "Hello from MockServer!\n")
        let folder = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let picture = folder.appendingPathComponent("dashboard.png")
        let result = try Tools.run("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--user-data-dir=\(folder.appendingPathComponent("profile").path)",
                                                "--screenshot=\(picture.path)", "--window-size=1280,860", admin], timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        // The picture's rows, unfiltered, across the transcript's list (right column, below its
        // title, at this window size): an empty list is one distinct row, white; the drawn
        // transcript is text on most of them.
        let rows = try Tools.python("""
            import struct, zlib
            data = open("\(picture.path)", "rb").read()
            assert data[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
            at, chunks, width = 8, b"", 0
            while at < len(data):
                size, kind = struct.unpack(">I4s", data[at:at + 8])
                body = data[at + 8:at + 8 + size]
                if kind == b"IHDR": width, height, depth, color = struct.unpack(">IIBB", body[:10])
                if kind == b"IDAT": chunks += body
                at += 12 + size
            pixel = {2: 3, 6: 4}[color]
            raw, stride, previous, rows = zlib.decompress(chunks), width * pixel, bytearray(width * pixel), set()
            for y in range(400):
                kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
                for x in range(stride):
                    a = line[x - pixel] if x >= pixel else 0
                    b = previous[x]
                    c = previous[x - pixel] if x >= pixel else 0
                    if kind == 1: line[x] = (line[x] + a) & 255
                    elif kind == 2: line[x] = (line[x] + b) & 255
                    elif kind == 3: line[x] = (line[x] + (a + b) // 2) & 255
                    elif kind == 4:
                        p = a + b - c
                        pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                        line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
                if y >= 150: rows.add(bytes(line[560 * pixel:1230 * pixel]))
                previous = line
            print(width, height, len(rows))
            """, timeout: 120)
        let numbers = rows.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(rows.status == 0 && numbers.count == 3, "\(rows.stdout)\(rows.stderr)")
        #expect(numbers.first == 1280 && numbers.last ?? 0 > 50, "\(rows.stdout)")
    }
}
