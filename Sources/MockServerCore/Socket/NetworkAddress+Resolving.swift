#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension NetworkAddress {
    /// The first TCP address of `host`, which may be a name (looked up with `getaddrinfo`, which
    /// blocks: call it before serving, not on a loop) or a numeric address.
    ///
    /// - Throws: ``SocketCallError`` with call `getaddrinfo`, the host and port, and the resolver's words.
    package static func resolving(host: String, port: UInt16) throws -> NetworkAddress {
        if let numeric = try? NetworkAddress(host: host, port: port) { return numeric }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Platform.streamSocketType
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            let words = String(cString: gai_strerror(status))
            throw SocketCallError(call: "getaddrinfo", address: "\(host):\(port)", code: EINVAL, message: words)
        }
        defer { freeaddrinfo(list) }
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let current = entry {
            if let address = current.pointee.ai_addr, current.pointee.ai_addrlen <= socklen_t(MemoryLayout<sockaddr_storage>.size) {
                var storage = sockaddr_storage()
                withUnsafeMutableBytes(of: &storage) { target in
                    target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(current.pointee.ai_addrlen)))
                }
                if let resolved = NetworkAddress(storage: storage) { return resolved }
            }
            entry = current.pointee.ai_next
        }
        throw SocketCallError(call: "getaddrinfo", address: "\(host):\(port)", code: EINVAL, message: "no IPv4 or IPv6 address")
    }
}
