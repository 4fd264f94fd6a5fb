import Foundation
import Testing
import TestSupport
import MockServer

/// HTTPS to a test CA without root (issue 39): a client that does not trust the server's certificate
/// gets a transcript entry that names the fixes, and `Scripts/with-test-ca.sh` makes one command
/// trust the CA through a user and mount namespace of its own, the system store untouched.
@Suite("Trusting a test CA", .offPool)
struct TestCATrustTests {
    /// Whether this machine lets an unprivileged process make a user and mount namespace.
    static let hasUserNamespaces: Bool = {
        guard let unshare = Tools.path(of: "unshare") else { return false }
        return (try? Tools.run(unshare, ["--user", "--map-root-user", "--mount", "true"]).status) == 0
    }()

    static let scripts = Tools.repositoryRoot.appendingPathComponent("Scripts").path

    private static let http = """
        {"scheme": "http", "responses": {"hello": {"pattern": "^GET /hello ", "commands": [{"response": {"body": "hi\\n"}}]}}}
        """

    /// A CA and a server certificate made by `trust-test-ca.sh --make` (not in the store), and a
    /// server that shows the certificate.
    private func start() async throws -> (MockServer, String) {
        let folder = try Tools.temporaryDirectory().appendingPathComponent("ca").path
        let made = try Tools.run(Self.scripts + "/trust-test-ca.sh", ["--make", folder])
        try #require(made.status == 0, "\(made.stdout)\(made.stderr)")
        var configuration = MockServer.Configuration()
        configuration.tls = TLSSettings(identity: try .init(certificateFile: folder + "/server.pem", privateKeyFile: folder + "/server.key"))
        let server = try MockServer(script: ResponseScript(json: Self.http), configuration: configuration)
        try await server.start()
        return (server, folder)
    }

    @Test("curl that does not trust the CA: exit 60, and the transcript names with-test-ca.sh, trust-test-ca.sh and the in-process session",
          .enabled(if: Tools.hasCurl))
    func untrustedClientGetsTheHint() async throws {
        let (server, _) = try await start()
        defer { server.stop() }
        let curl = try Tools.run("/usr/bin/env", ["curl", "-sS", "-o", "/dev/null", "https://127.0.0.1:\(server.port)/hello"])
        #expect(curl.status == 60, "\(curl.stderr)")
        let failure = try await server.transcript.wait { if case .note(let note) = $0.event { note.kind == "tls-failed" } else { false } }
        let text = "\(failure.event)"
        #expect(text.contains("unknown ca") && text.contains("Scripts/with-test-ca.sh") && text.contains("Scripts/trust-test-ca.sh")
                    && text.contains("makeInProcessSession()"), "\(text)")
    }

    @Test("curl under with-test-ca.sh trusts the CA (200), the same curl outside it does not (60)",
          .enabled(if: Tools.hasCurl && hasUserNamespaces, "needs curl and unprivileged user namespaces (unshare --user --map-root-user --mount)"))
    func scriptTrustsTheCA() async throws {
        let (server, folder) = try await start()
        defer { server.stop() }
        let arguments = ["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "https://127.0.0.1:\(server.port)/hello"]
        let outside = try Tools.run("/usr/bin/env", arguments)
        #expect(outside.status == 60 && outside.stdout == "000", "\(outside.stdout)\(outside.stderr)")
        let inside = try Tools.run(Self.scripts + "/with-test-ca.sh", ["--ca", folder + "/ca.pem", "--"] + arguments)
        #expect(inside.status == 0 && inside.stdout == "200", "\(inside.stdout)\(inside.stderr)")
    }

    @Test("run from a package that depends on MockServer, the CA goes into that package's .build (or --dir), never the dependency's",
          .enabled(if: hasUserNamespaces && Tools.path(of: "openssl") != nil, "needs openssl and unprivileged user namespaces"))
    func dependentPackage() throws {
        let work = try Tools.temporaryDirectory().resolvingSymlinksInPath()
        defer { try? FileManager.default.removeItem(at: work) }
        let package = work.appendingPathComponent("App")
        let inside = package.appendingPathComponent("Sources/App")
        try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: true)
        try Data("// swift-tools-version:6.0\n".utf8).write(to: package.appendingPathComponent("Package.swift"))
        // The command prints the folder it was given and how many certificates its ca.pem holds.
        let report = ["--", "/bin/sh", "-c", #"printf '%s %s' "$MOCKSERVER_TRUSTED_TLS_DIR" "$(grep -c 'BEGIN CERTIFICATE' "$MOCKSERVER_TRUSTED_TLS_DIR/ca.pem")""#]
        let unset = ["MOCKSERVER_TRUSTED_TLS_DIR": ""]
        for directory in [package, inside] {
            let result = try Tools.run(Self.scripts + "/with-test-ca.sh", report, environment: unset, directory: directory)
            #expect(result.status == 0 && result.stdout == package.path + "/.build/trusted-tls 1", "\(result.stdout)\(result.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: package.path + "/.build/trusted-tls/server.pem"))
        let given = work.appendingPathComponent("given")
        let withDir = try Tools.run(Self.scripts + "/with-test-ca.sh", ["--dir", given.path] + report, environment: unset, directory: inside)
        #expect(withDir.status == 0 && withDir.stdout == given.path + " 1", "\(withDir.stdout)\(withDir.stderr)")
        let nowhere = try Tools.run(Self.scripts + "/with-test-ca.sh", report, environment: unset, directory: given)
        #expect(nowhere.status == 64 && nowhere.stderr.contains("--dir DIR"), "\(nowhere.stderr)")
    }

    @Test("without user namespaces the script says so and names the alternatives")
    func noUserNamespaces() throws {
        // An `unshare` that fails, as on a kernel without unprivileged user namespaces. A link, not a
        // script written here: a file just written may still be open in a child that another test
        // forked meanwhile, and executing it would fail with ETXTBSY instead.
        let bin = try Tools.temporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent("unshare").path, withDestinationPath: try #require(Tools.path(of: "false")))
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let result = try Tools.run(Self.scripts + "/with-test-ca.sh", ["--ca", "/nonexistent.pem", "--", "true"], environment: ["PATH": path])
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("user namespaces are not available here (unshare --user --map-root-user --mount: failed)")
                    && result.stderr.contains("Scripts/trust-test-ca.sh DIR as root") && result.stderr.contains("makeInProcessSession()"), "\(result.stderr)")
    }
}
