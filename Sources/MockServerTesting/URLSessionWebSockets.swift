#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Whether `URLSessionWebSocketTask` can open a WebSocket here, for a test's trait:
///
/// ```swift
/// @Test(.enabled(if: URLSessionWebSockets.areAvailable, "URLSession cannot open WebSockets here"))
/// func chat() async throws { /* … */ }
/// ```
///
/// Always on Apple platforms. On Linux, FoundationNetworking opens WebSockets through the system's
/// libcurl, and only a libcurl built with WebSocket support can (Debian 12's is not, and its
/// `URLSessionWebSocketTask` fails at once): this asks the libcurl that FoundationNetworking would
/// load whether it lists `ws` among its protocols.
public enum URLSessionWebSockets {
    /// Whether `URLSessionWebSocketTask` works on this system.
    public static let areAvailable: Bool = {
        #if canImport(Darwin)
        return true
        #else
        return libcurlProtocols?.contains("ws") ?? false
        #endif
    }()

    #if !canImport(Darwin)
    /// The protocols the system's libcurl lists (`curl_version_info`), `nil` when it cannot be loaded.
    static var libcurlProtocols: [String]? {
        guard let library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL) else { return nil }
        defer { dlclose(library) }
        guard let symbol = dlsym(library, "curl_version_info") else { return nil }
        typealias VersionInfo = @convention(c) (Int32) -> UnsafeRawPointer?
        // The oldest layout (CURLVERSION_FIRST) is enough: `protocols` has always been its ninth field.
        guard let info = unsafeBitCast(symbol, to: VersionInfo.self)(0) else { return nil }
        // age, version, version_num, host, features, ssl_version, ssl_version_num, libz_version:
        // eight fields of 8 bytes each (the 4-byte ones padded) on a 64-bit system, then protocols.
        guard MemoryLayout<Int>.size == 8,
              let protocols = info.load(fromByteOffset: 64, as: UnsafePointer<UnsafePointer<CChar>?>?.self) else { return nil }
        var names: [String] = []
        var index = 0
        while let name = protocols[index] {
            names.append(String(cString: name))
            index += 1
        }
        return names
    }
    #endif
}
