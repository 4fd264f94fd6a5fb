// swift-tools-version:6.1
// The route_guide client MockServer's acceptance tests run against the mock and against the
// example's Python server: grpc-swift 2 over HTTP/2 (SwiftNIO), with swift-protobuf messages. A
// package of its own, not a dependency of MockServer; its generated code is committed
// (Sources/RouteGuideClient/Generated, README.md says how it was made).
import PackageDescription

let package = Package(
    name: "RouteGuideSwift",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/grpc/grpc-swift-2.git", exact: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport.git", exact: "2.9.2"),
        .package(url: "https://github.com/grpc/grpc-swift-protobuf.git", exact: "2.4.1"),
        .package(url: "https://github.com/apple/swift-protobuf.git", exact: "1.39.0"),
    ],
    targets: [
        .executableTarget(
            name: "RouteGuideClient",
            dependencies: [
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "GRPCProtobuf", package: "grpc-swift-protobuf"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
