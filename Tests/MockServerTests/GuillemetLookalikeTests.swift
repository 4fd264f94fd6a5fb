import Foundation
import Testing
import TestSupport
import MockServer
import MockServerResponses

/// A command typed with ASCII angle brackets (`"<<close>>"`) is sent as text: loading warns, naming
/// file, line and column and the command it resembles, and `mockserver --check` prints the warning.
@Suite("Guillemet look-alikes", .offPool)
struct GuillemetLookalikeTests {
    static let script = """
        {"scheme": "ftp", "responses": {
            "quit": {"pattern": "^QUIT", "commands": ["221 Bye\\r\\n", "<<close>>"]},
            "pasv": {"pattern": "^PASV", "commands": [" << Passive >> "]},
            "text": {"pattern": "^NOOP", "commands": ["<<not a command>>", "<<", "«close»"]},
            "hello": {"pattern": "<<initial>>", "commands": ["220 Hi\\r\\n"]}
        }}
        """

    @Test("loading warns on each look-alike with its place and the command it resembles, and sends it as text")
    func libraryWarns() throws {
        let script = try ResponseScript(json: Self.script, file: "x.json")
        #expect(script.warnings.map(\.description) == [
            "x.json:2:62: responses.quit.commands[1]: \"<<close>>\" is sent as text; the command it resembles is «close»: "
                + "write \"«close»\" (or \"\\u00abclose\\u00bb\"; on a Mac, « is Option-\\ and » is Option-Shift-\\)",
            "x.json:3:47: responses.pasv.commands[0]: \" << Passive >> \" is sent as text; the command it resembles is «passive»: "
                + "write \"«passive»\" (or \"\\u00abpassive\\u00bb\"; on a Mac, « is Option-\\ and » is Option-Shift-\\)",
            "x.json:5:26: responses.hello.pattern: \"<<initial>>\" is a pattern that matches that text; the token it resembles is «initial»: "
                + "write \"«initial»\" (or \"\\u00abinitial\\u00bb\"; on a Mac, « is Option-\\ and » is Option-Shift-\\)",
        ])
        // A warning is not a problem: the strict check passes, and the text is what is sent.
        try script.validate()
        guard case .send(let text)? = try script.set(named: "default").entries[0].commands.last else { Issue.record("not a send"); return }
        #expect(text.source == "<<close>>")
    }

    @Test("a file without look-alikes has no warnings")
    func noWarnings() throws {
        let bundled = try ResponseScript(contentsOf: try #require(BundledResponses.url(named: "ftp")))
        #expect(bundled.warnings.isEmpty)
    }

    @Test("mockserver --check prints FILE:LINE:COLUMN: warning: and still passes")
    func checkPrintsWarnings() throws {
        let file = try Tools.temporaryDirectory().appendingPathComponent("lookalike.json")
        try Self.script.write(to: file, atomically: true, encoding: .utf8)
        let result = try Tools.run(Tools.mockserver.path, ["--check", file.path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(result.stdout)")
        #expect(lines.first?.hasPrefix("\(file.path):2:62: warning: responses.quit.commands[1]: \"<<close>>\" is sent as text; the command it resembles is «close»") == true,
                "\(result.stdout)")
        #expect(lines.last == "\(file.path): OK, sets: \"default\"")
    }
}
