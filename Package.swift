// swift-tools-version:6.0
import PackageDescription

/// Settings shared by every target: Swift 6 language mode (strict concurrency) for all of them.
let swiftSettings: [SwiftSetting] = []

let package = Package(
    name: "MockServer",
    products: [
        .library(name: "MockServer", targets: ["MockServer"]),
        .library(name: "MockServerResponses", targets: ["MockServerResponses"]),
        .library(name: "MockServerTesting", targets: ["MockServerTesting"]),
        .executable(name: "mockserver", targets: ["mockserver"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "CMockServerLinux"),
        .target(
            name: "MockServer",
            dependencies: [.target(name: "CMockServerLinux", condition: .when(platforms: [.linux]))],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "MockServerResponses",
            dependencies: ["MockServer"],
            path: "Responses",
            exclude: ["README.md"],
            resources: [.copy("ftp.json"), .copy("http.json"), .copy("webdav.json")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "MockServerTesting",
            dependencies: ["MockServer", "MockServerResponses"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "mockserver",
            dependencies: ["MockServer", "MockServerResponses"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "mockserver-bench",
            dependencies: ["MockServer"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TestSupport",
            path: "Tests/TestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MockServerTests",
            dependencies: ["MockServer", "MockServerResponses", "TestSupport"],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MockServerTestingTests",
            dependencies: ["MockServerTesting", "MockServer", "MockServerResponses", "TestSupport"],
            resources: [.copy("Responses")],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
