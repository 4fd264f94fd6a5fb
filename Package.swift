// swift-tools-version:6.0
import PackageDescription

/// Settings shared by every target: Swift 6 language mode (strict concurrency) for all of them.
let swiftSettings: [SwiftSetting] = []

let package = Package(
    name: "MockServer",
    // `Duration` (public API, and the loop's timers) sets every minimum: macOS 13, iOS and tvOS 16,
    // visionOS 1. What needs more (the loop's task executor: macOS 15, iOS 18) asks `#available`.
    // Only Linux runs here: README's Platforms says what is type-checked and what has not run.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .visionOS(.v1)],
    products: [
        .library(name: "MockServer", targets: ["MockServer"]),
        .library(name: "MockServerResponses", targets: ["MockServerResponses"]),
        .library(name: "MockServerTesting", targets: ["MockServerTesting"]),
        // The names six types had before they were renamed to live beside swift-nio (CHANGELOG.md).
        .library(name: "MockServerLegacyNames", targets: ["MockServerLegacyNames"]),
        .executable(name: "mockserver", targets: ["mockserver"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "CMockServerLinux"),
        // The layers, lowest first. Each may import only the ones above it in this list.
        .target(
            name: "MockServerCore",
            dependencies: [.target(name: "CMockServerLinux", condition: .when(platforms: [.linux]))],
            swiftSettings: swiftSettings
        ),
        .target(name: "MockServerFileSystem", dependencies: ["MockServerCore"], swiftSettings: swiftSettings),
        // The script language's shared commands and its interpreter; each protocol below adds its own.
        .target(name: "MockServerScript", dependencies: ["MockServerCore", "MockServerFileSystem"], swiftSettings: swiftSettings),
        .target(name: "MockServerTLS", dependencies: ["MockServerCore", "MockServerScript"], swiftSettings: swiftSettings),
        // The server: lifecycle, and listeners and settings composed from the protocol values it is
        // given. It names no protocol: each protocol's target adds its own part (above it here).
        .target(name: "MockServerEngine", dependencies: ["MockServerCore", "MockServerFileSystem", "MockServerScript", "MockServerTLS"], swiftSettings: swiftSettings),
        .target(name: "MockServerHTTP", dependencies: ["MockServerCore"], swiftSettings: swiftSettings),
        // Protocol Buffers (issue 53): `.proto` files and descriptor sets read into a schema, the wire
        // format and the proto3 JSON mapping. Pure code.
        .target(name: "MockServerProtobuf", dependencies: ["MockServerCore"], swiftSettings: swiftSettings),
        // HTTP's script glue: its commands and variables, the script responder, the endpoints format.
        .target(name: "MockServerHTTPScript", dependencies: ["MockServerCore", "MockServerEngine", "MockServerHTTP", "MockServerProtobuf", "MockServerScript"], swiftSettings: swiftSettings),
        // HTTP/2: frames and HPACK as pure codecs, the connection state machine, and the driver that serves HTTP responders over them.
        .target(name: "MockServerHTTP2", dependencies: ["MockServerCore", "MockServerEngine", "MockServerHTTP"], swiftSettings: swiftSettings),
        .target(name: "MockServerWebSocket", dependencies: ["MockServerCore", "MockServerEngine", "MockServerHTTP", "MockServerScript"], swiftSettings: swiftSettings),
        .target(name: "MockServerWebSocketScript", dependencies: ["MockServerCore", "MockServerScript", "MockServerWebSocket"], swiftSettings: swiftSettings),
        .target(name: "MockServerWebDAV", dependencies: ["MockServerCore", "MockServerHTTP", "MockServerHTTPScript", "MockServerFileSystem", "MockServerScript"], swiftSettings: swiftSettings),
        .target(name: "MockServerFTP", dependencies: ["MockServerCore", "MockServerEngine", "MockServerFileSystem", "MockServerScript", "MockServerTLS"], swiftSettings: swiftSettings),
        .target(name: "MockServerMockData", dependencies: ["MockServerCore", "MockServerHTTP"], swiftSettings: swiftSettings),
        // Mail (issue 51): the MIME parser, the mailbox, and SMTP's and POP3's sessions as pure state values.
        .target(name: "MockServerMail", dependencies: ["MockServerCore"], swiftSettings: swiftSettings),
        // Mail's serving: the sessions on connections (STARTTLS included) and the mail server of SMTP and POP3.
        .target(name: "MockServerMailScript", dependencies: ["MockServerCore", "MockServerEngine", "MockServerMail", "MockServerScript", "MockServerTLS"], swiftSettings: swiftSettings),
        .target(name: "MockServerInProcess", dependencies: ["MockServerCore", "MockServerEngine", "MockServerHTTP", "MockServerTLS"], swiftSettings: swiftSettings),
        .target(name: "MockServerStubs", dependencies: ["MockServerCore", "MockServerEngine", "MockServerHTTP", "MockServerHTTP2", "MockServerHTTPScript", "MockServerInProcess", "MockServerScript", "MockServerMockData", "MockServerWebSocket"], swiftSettings: swiftSettings),
        .target(name: "MockServerRecording", dependencies: ["MockServerCore", "MockServerHTTP", "MockServerHTTP2", "MockServerHTTPScript", "MockServerProtobuf", "MockServerScript", "MockServerMockData", "MockServerStubs", "MockServerTLS", "MockServerWebSocketScript"], swiftSettings: swiftSettings),
        .target(
            name: "MockServer",
            dependencies: ["MockServerCore", "MockServerEngine", "MockServerHTTP", "MockServerHTTPScript", "MockServerWebDAV", "MockServerFTP", "MockServerScript", "MockServerStubs", "MockServerMockData", "MockServerInProcess", "MockServerTLS", "MockServerRecording", "MockServerWebSocket", "MockServerWebSocketScript",
                           // Built with the facade so that the fuzz package (Fuzz/) reaches its codecs.
                           "MockServerHTTP2",
                           // Mail: `MockServer.Mail` (and the mail codecs for the fuzz package).
                           "MockServerMail", "MockServerMailScript",
                           // Protocol Buffers, for the fuzz package (FuzzProtoWire, FuzzProtoReader).
                           "MockServerProtobuf"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "MockServerResponses",
            dependencies: ["MockServer"],
            path: "Responses",
            exclude: ["README.md"],
            resources: [.copy("ftp.json"), .copy("http.json"), .copy("webdav.json"), .copy("endpoints.json")],
            swiftSettings: swiftSettings
        ),
        .target(name: "MockServerLegacyNames", dependencies: ["MockServer"], swiftSettings: swiftSettings),
        .target(name: "MockServerAdmin", dependencies: ["MockServerCore", "MockServerHTTP", "MockServerScript", "MockServerMockData", "MockServerStubs", "MockServerWebSocket", "MockServerEngine"], swiftSettings: swiftSettings),
        .target(
            name: "MockServerTesting",
            dependencies: ["MockServer", "MockServerResponses"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "mockserver",
            dependencies: ["MockServer", "MockServerResponses", "MockServerAdmin", "MockServerCore", "MockServerMail", "MockServerMailScript", "MockServerRecording",
                           // GRPCSchema, for mockserver record --proto.
                           "MockServerHTTPScript"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "mockserver-bench",
            dependencies: ["MockServer", "MockServerCore", "MockServerHTTP", "MockServerScript", "MockServerStubs"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TestSupport",
            path: "Tests/TestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MockServerTests",
            dependencies: ["MockServer", "MockServerCore", "MockServerFTP", "MockServerHTTP", "MockServerHTTPScript", "MockServerResponses", "MockServerScript", "MockServerWebDAV", "TestSupport"],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        // A test target per source target, for the layers' own unit tests; MockServerTests has the
        // tests that need the whole server and real clients.
        .testTarget(name: "MockServerCoreTests", dependencies: ["MockServerCore", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "MockServerHTTPTests", dependencies: ["MockServer", "MockServerCore", "MockServerHTTP", "MockServerResponses", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "MockServerHTTPScriptTests", dependencies: ["MockServer", "MockServerCore", "MockServerHTTP", "MockServerHTTPScript", "MockServerScript", "MockServerWebDAV", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "MockServerFTPTests", dependencies: ["MockServer", "MockServerCore", "MockServerFTP", "MockServerFileSystem", "MockServerHTTP", "MockServerResponses", "MockServerScript", "MockServerWebDAV", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "MockServerScriptTests", dependencies: ["MockServerCore", "MockServerScript"], swiftSettings: swiftSettings),
        .testTarget(name: "MockServerWebDAVTests", dependencies: ["MockServer", "MockServerCore", "MockServerFileSystem", "MockServerHTTP", "MockServerResponses", "MockServerScript", "MockServerWebDAV", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "MockServerInProcessTests", dependencies: ["MockServer", "MockServerCore", "MockServerHTTP", "MockServerInProcess", "MockServerResponses", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "MockServerMockDataTests", dependencies: ["MockServer", "MockServerCore", "MockServerHTTP", "MockServerMockData", "MockServerResponses", "TestSupport"], resources: [.copy("VOKMockData")], swiftSettings: swiftSettings),
        .testTarget(name: "MockServerHTTP2Tests", dependencies: ["MockServer", "MockServerCore", "MockServerHTTP", "MockServerHTTP2", "MockServerTLS", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "MockServerWebSocketTests", dependencies: ["MockServer", "MockServerWebSocket", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "MockServerWebSocketScriptTests", dependencies: ["MockServer", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "MockServerRecordingTests", dependencies: ["MockServer", "MockServerCore", "MockServerHTTP", "MockServerHTTPScript", "MockServerMockData", "MockServerRecording", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "MockServerStubsTests", dependencies: ["MockServer", "MockServerHTTP", "MockServerResponses", "MockServerScript", "MockServerStubs", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "MockServerTLSTests", dependencies: ["MockServer", "MockServerCore", "MockServerTLS", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "MockServerAdminTests", dependencies: ["MockServer", "MockServerAdmin", "MockServerCore", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "MockServerEngineTests", dependencies: ["MockServer", "MockServerCore", "MockServerHTTP", "MockServerResponses", "MockServerScript", "MockServerWebDAV", "TestSupport"], swiftSettings: swiftSettings),
        // The JSON mapping's conformance table runs Python's protobuf on the test .proto files (Fixtures).
        .testTarget(name: "MockServerProtobufTests", dependencies: ["MockServerCore", "MockServerProtobuf", "TestSupport"], exclude: ["Fixtures"], swiftSettings: swiftSettings),
        .testTarget(name: "MockServerLegacyNamesTests", dependencies: ["MockServerLegacyNames"], swiftSettings: swiftSettings),
        .testTarget(name: "MockServerFileSystemTests", dependencies: ["MockServerFileSystem", "TestSupport"], swiftSettings: swiftSettings),
        // The MIME corpus (Fixtures/corpus/*.eml) is read from the repository, as Python reads it.
        .testTarget(name: "MockServerMailTests", dependencies: ["MockServerCore", "MockServerMail", "TestSupport"], exclude: ["Fixtures"], swiftSettings: swiftSettings),
        .testTarget(name: "MockServerMailScriptTests", dependencies: ["MockServer", "MockServerAdmin", "MockServerCore", "MockServerEngine", "MockServerMail", "MockServerMailScript", "MockServerScript", "MockServerTLS", "TestSupport"], swiftSettings: swiftSettings),
        // A line protocol's own script commands, added through the extension point by a user's code.
        .testTarget(
            name: "ScriptExtensionTests",
            // MockServerAdmin: the control API, started in a test as `mockserver --admin` starts it.
            dependencies: ["MockServer", "MockServerAdmin", "TestSupport"],
            swiftSettings: swiftSettings
        ),
        // README's layout graph and list of public types, held equal to the package.
        .testTarget(
            name: "PackageLayoutTests",
            dependencies: ["TestSupport"],
            // Read from the repository by the test, as the sources are (Scripts/server-side-type-names.sh writes it).
            exclude: ["ServerSideTypeNames.txt"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MockServerReadmeTests",
            dependencies: ["MockServer", "MockServerResponses", "MockServerTesting", "TestSupport"],
            path: "Tests/ReadmeSnippets",
            resources: [.copy("Responses"), .copy("VOKMockData")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MockServerTestingTests",
            dependencies: ["MockServer", "MockServerResponses", "MockServerTesting", "TestSupport"],
            resources: [.copy("Responses"), .copy("VOKMockData")],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)

// `MOCKSERVER_TEST_TARGETS=A,B` declares only those test targets and what they need, so that a build
// for them compiles nothing else: CI's sanitizer runs (.ci/run) each build the package once more,
// instrumented, for the test targets of their layers only (compiling the tests is most of a debug
// build). The targets those tests depend on stay, with theirs; when that includes the `MockServer`
// facade, the executables stay too (such tests may start the `mockserver` command); a product stays
// when all its targets do. A name that is not a test target of this package stops the manifest,
// naming it. Unset, as for every user, the package is whole.
if let chosen = Context.environment["MOCKSERVER_TEST_TARGETS"] {
    let names = chosen.split(separator: ",").map { String($0.filter { $0 != " " }) }
    let targetsByName = Dictionary(uniqueKeysWithValues: package.targets.map { ($0.name, $0) })
    let testTargets = package.targets.filter { $0.type == .test }.map(\.name)
    for name in names where !testTargets.contains(name) {
        fatalError("MOCKSERVER_TEST_TARGETS names \(name), which is not a test target of MockServer (these are: \(testTargets.sorted().joined(separator: ", ")))")
    }
    var kept = Set<String>()
    func keep(_ name: String) {
        guard let target = targetsByName[name], kept.insert(name).inserted else { return }
        for dependency in target.dependencies {
            switch dependency {
            case .targetItem(let name, _), .byNameItem(let name, _): keep(name)
            default: break
            }
        }
    }
    names.forEach(keep)
    if kept.contains("MockServer") { package.targets.filter { $0.type == .executable }.forEach { keep($0.name) } }
    package.targets.removeAll { !kept.contains($0.name) }
    package.products.removeAll { product in
        let targets = (product as? Product.Library)?.targets ?? (product as? Product.Executable)?.targets ?? []
        return !targets.allSatisfy(kept.contains)
    }
}
