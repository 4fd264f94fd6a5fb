#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A numeric IPv4 or IPv6 socket address.
public struct NetworkAddress: Sendable, Equatable, CustomStringConvertible {
    /// The numeric host, such as `127.0.0.1` or `::1`.
    public let host: String
    /// The TCP port.
    public let port: UInt16
    /// Whether this is an IPv6 address.
    public let isIPv6: Bool

    /// Parses a numeric host (`localhost` means `127.0.0.1`) and a port.
    ///
    /// - Throws: ``SocketCallError`` with call `inet_pton` when `host` is not a numeric address.
    public init(host: String, port: UInt16) throws {
        let numeric = host == "localhost" ? "127.0.0.1" : host
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, numeric, &v4) == 1 {
            isIPv6 = false
        } else if inet_pton(AF_INET6, numeric, &v6) == 1 {
            isIPv6 = true
        } else {
            throw SocketCallError(call: "inet_pton", address: host, code: EINVAL)
        }
        self.host = numeric
        self.port = port
    }

    package init(host: String, port: UInt16, isIPv6: Bool) {
        self.host = host
        self.port = port
        self.isIPv6 = isIPv6
    }

    /// `127.0.0.1:21` or `[::1]:21`.
    public var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Calls `body` with this address as a `sockaddr`.
    package func withSockAddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            _ = inet_pton(AF_INET6, host, &address.sin6_addr)
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        _ = inet_pton(AF_INET, host, &address.sin_addr)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// Reads a `sockaddr_storage` filled in by the kernel.
    package init?(storage: sockaddr_storage) {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            let (text, port): (String, UInt16) = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                    var address = pointer.pointee.sin_addr
                    let text = withUnsafePointer(to: &address) { Self.text(family: AF_INET, UnsafeRawPointer($0), length: Int(INET_ADDRSTRLEN)) }
                    return (text, UInt16(bigEndian: pointer.pointee.sin_port))
                }
            }
            self.init(host: text, port: port, isIPv6: false)
        case AF_INET6:
            let (text, port): (String, UInt16) = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                    var address = pointer.pointee.sin6_addr
                    let text = withUnsafePointer(to: &address) { Self.text(family: AF_INET6, UnsafeRawPointer($0), length: Int(INET6_ADDRSTRLEN)) }
                    return (text, UInt16(bigEndian: pointer.pointee.sin6_port))
                }
            }
            self.init(host: text, port: port, isIPv6: true)
        default:
            return nil
        }
    }

    private static func text(family: Int32, _ address: UnsafeRawPointer, length: Int) -> String {
        var buffer = [CChar](repeating: 0, count: length + 1)
        _ = inet_ntop(family, address, &buffer, socklen_t(length))
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
