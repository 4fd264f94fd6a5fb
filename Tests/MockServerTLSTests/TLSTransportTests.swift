import Foundation
import MockServerCore
import MockServerTLS
import Testing
import TestSupport

/// The TLS transport over real sockets, with nothing above it but a line echo: Python's `ssl` as
/// the client, the core's loop as the server.
@Suite("TLS transport", .offPool)
struct TLSTransportTests {
    /// A started TLS-only server for `configuration`, and its CA written to a file.
    private func start(_ configuration: TLSSettings) throws -> (TLSOnlyServer, String) {
        let server = try TLSOnlyServer(configuration) { LineEchoDriver() }
        let ca = try Tools.temporaryDirectory().appendingPathComponent("ca.pem").path
        try #require(configuration.identity.caCertificatePEM).write(toFile: ca, atomically: true, encoding: .utf8)
        return (server, ca)
    }

    @Test("ciphertext taken one byte at a time: the handshake, 20 KB echoed in lines, and the server's close_notify end")
    func oneByteAtATime() async throws {
        var tls = try TLSSettings.generated()
        tls.ciphertextReadLimit = 1
        let (server, ca) = try start(tls)
        defer { server.stop() }
        let result = try Tools.python("""
            import socket, ssl
            context = ssl.create_default_context(cafile="\(ca)")
            with socket.create_connection(("127.0.0.1", \(server.port)), timeout=30) as raw:
                with context.wrap_socket(raw, server_hostname="localhost", suppress_ragged_eofs=False) as tls:
                    lines = b"".join(b"%05d %s\\n" % (i, b"x" * 94) for i in range(200))
                    tls.sendall(lines + b"QUIT\\n")
                    data = b""
                    while chunk := tls.recv(65536):
                        data += chunk
                    print(data == lines + b"BYE\\n", tls.version())
            """)
        #expect(result.stdout == "True TLSv1.3\n", "\(result.stdout)\(result.stderr)")
        _ = try await server.environment.transcript.wait { $0.event == .closed(.script) }
        #expect(server.notes("tls-handshake").count == 1 && server.notes("tls-handshake")[0].contains("sni=localhost"), "\(server.notes("tls-handshake"))")
        #expect(server.notes("tls-failed").isEmpty && server.notes("tls-fault").isEmpty)
    }

    @Test("handshake faults at the layer: what Python's ssl raises, and the transcript's note", arguments: [
        (TLSSettings.HandshakeFault.hang, "TimeoutError", "hang"), (.reset, "ConnectionResetError", "reset"), (.alert, "SSLError SSLV3_ALERT_HANDSHAKE_FAILURE", "alert"),
    ])
    func handshakeFaults(fault: TLSSettings.HandshakeFault, error: String, note: String) async throws {
        var tls = try TLSSettings.generated()
        tls.handshakeFault = fault
        let (server, ca) = try start(tls)
        defer { server.stop() }
        let result = try Tools.python("""
            import socket, ssl
            context = ssl.create_default_context(cafile="\(ca)")
            try:
                with socket.create_connection(("127.0.0.1", \(server.port)), timeout=1) as raw:
                    with context.wrap_socket(raw, server_hostname="127.0.0.1"):
                        print("connected")
            except ssl.SSLError as e:
                print("SSLError", e.reason)
            except OSError as e:
                print(type(e).__name__)
            """)
        #expect(result.stdout == error + "\n", "\(fault): \(result.stdout)\(result.stderr)")
        let played = try await server.environment.transcript.wait { if case .note(let note) = $0.event { note.kind == "tls-fault" } else { false } }
        #expect("\(played.event)".contains("TLS fault: \(note):"), "\(played)")
    }

    @Test("without close_notify the client sees a truncation and the transcript says so; with it, a clean end")
    func closeNotify() async throws {
        for sendsCloseNotify in [true, false] {
            var tls = try TLSSettings.generated()
            tls.sendsCloseNotify = sendsCloseNotify
            let (server, ca) = try start(tls)
            defer { server.stop() }
            let result = try Tools.python("""
                import socket, ssl
                context = ssl.create_default_context(cafile="\(ca)")
                with socket.create_connection(("127.0.0.1", \(server.port)), timeout=10) as raw:
                    with context.wrap_socket(raw, server_hostname="127.0.0.1", suppress_ragged_eofs=False) as tls:
                        tls.sendall(b"one\\nQUIT\\n")
                        data = b""
                        try:
                            while chunk := tls.recv(4096):
                                data += chunk
                            print("complete", data)
                        except ssl.SSLEOFError:
                            print("SSLEOFError", data)
                """)
            _ = try await server.environment.transcript.wait { $0.event == .closed(.script) }
            if sendsCloseNotify {
                #expect(result.stdout == "complete b'one\\nBYE\\n'\n", "\(result.stdout)\(result.stderr)")
                #expect(server.notes("tls-fault").isEmpty)
            } else {
                #expect(result.stdout == "SSLEOFError b'one\\nBYE\\n'\n", "\(result.stdout)\(result.stderr)")
                #expect(server.notes("tls-fault") == ["TLS fault: the connection ends without close_notify"])
            }
        }
    }
}
