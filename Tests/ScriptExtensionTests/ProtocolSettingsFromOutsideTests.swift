import Foundation
import MockServer
import Testing
import TestSupport

// A protocol added from outside brings its own settings value: it lives in the server's
// configuration (`configuration.settings`) beside FTP's and HTTP's, the protocol composes the
// server with it (refusing to start on a setting it does not allow), and each connection's framer
// is made with it. The engine names none of it.

/// SIZED's part of a server's configuration: the longest frame its connections take.
struct SizedSettings: Sendable, Hashable {
    var maximumFrame: Int
    /// Whether the server may serve SIZED at all.
    var enabled = true
}

/// Why a server of a SIZED script would not start.
struct SizedRefusal: Error, Equatable {
    let reason: String
}

/// FRAMES' framing (a 2-byte length, then the payload) under another scheme, whose longest frame
/// is the configuration's `SizedSettings.maximumFrame`.
struct SizedProtocol: ScriptProtocol {
    let name = "SIZED"
    let schemes: Set<String> = ["sized"]
    let keys = ["reply"]

    func connections(framing: Framing) -> ScriptConnections {
        .framed { maximumLength, settings in LengthPrefixedFramer(maximumLength: settings[SizedSettings.self]?.maximumFrame ?? maximumLength) }
    }

    func compose(_ connections: ScriptConnections, script: ResponseScript?, settings: inout ScriptSettings) throws -> ScriptConnections {
        guard let sized = settings[SizedSettings.self] else { return connections }
        guard sized.enabled else { throw SizedRefusal(reason: "SIZED is off in this configuration") }
        guard sized.maximumFrame > 0 else { throw SizedRefusal(reason: "maximumFrame is \(sized.maximumFrame): it takes 1 or more") }
        return connections
    }

    func command(key: String, object: ScriptDecoding.CommandObject, in decoding: ScriptDecoding) throws(ResponseFileError) -> ScriptCommand {
        try FramesProtocol().command(key: key, object: object, in: decoding)
    }
}

@Suite("A protocol's own settings, from outside the package", .offPool)
struct ProtocolSettingsFromOutsideTests {
    static let script = """
        {
          "scheme": "sized",
          "responses": {
            "echo": { "pattern": "^ECHO (.*)$", "commands": [{"reply": "$1"}] }
          }
        }
        """

    static func server(_ settings: SizedSettings?) throws -> MockServer {
        let script = try ResponseScript(json: script, file: "sized.json", vocabulary: .standard.adding(SizedProtocol()))
        var configuration = MockServer.Configuration()
        configuration.settings[SizedSettings.self] = settings
        return try MockServer(script: script, configuration: configuration)
    }

    @Test("the protocol refuses to start a server whose settings it does not allow, saying why")
    func composeRefuses() throws {
        #expect(throws: SizedRefusal(reason: "SIZED is off in this configuration")) { try Self.server(SizedSettings(maximumFrame: 10, enabled: false)).start() }
        #expect(throws: SizedRefusal(reason: "maximumFrame is 0: it takes 1 or more")) { try Self.server(SizedSettings(maximumFrame: 0)).start() }
    }

    @Test("each connection's framer takes the configuration's longest frame: a longer one closes the connection, a shorter one is answered")
    func framerReadsTheSettings() throws {
        let server = try Self.server(SizedSettings(maximumFrame: 10))
        try server.start()
        defer { server.stop() }
        let result = try Tools.python("""
            import socket, struct
            def frame(text):
                data = text.encode()
                return struct.pack(">H", len(data)) + data
            with socket.create_connection(("127.0.0.1", \(server.port)), timeout=10) as s:
                f = s.makefile("rwb")
                f.write(frame("ECHO hi")); f.flush()
                (n,) = struct.unpack(">H", f.read(2)); print(f.read(n).decode())
                f.write(frame("ECHO far too long")); f.flush()
                print(repr(f.read(2)))
            """)
        #expect(result.stdout == "hi\nb''\n", "\(result)")
        // Without the setting the server's longest line is the limit, and the long frame is answered.
        let open = try Self.server(nil)
        try open.start()
        defer { open.stop() }
        let answered = try Tools.python("""
            import socket, struct
            data = b"ECHO far too long"
            with socket.create_connection(("127.0.0.1", \(open.port)), timeout=10) as s:
                f = s.makefile("rwb")
                f.write(struct.pack(">H", len(data)) + data); f.flush()
                (n,) = struct.unpack(">H", f.read(2)); print(f.read(n).decode())
            """)
        #expect(answered.stdout == "far too long\n", "\(answered)")
    }
}
