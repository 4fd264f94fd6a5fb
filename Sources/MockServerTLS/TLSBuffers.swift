import MockServerCore

/// The buffers a loop's TLS connections move ciphertext through, one set per loop (its thread runs
/// one connection at a time): a connection keeps bytes of its own only when its socket cannot take
/// them, and a thousand idle connections hold no buffers at all.
final class TLSBuffers {
    /// Ciphertext read from a socket on its way into OpenSSL.
    let incoming = UnsafeMutableRawBufferPointer.allocate(byteCount: 17 * 1024, alignment: 16)
    /// Ciphertext read out of OpenSSL on its way to a socket.
    let outgoing = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

    deinit {
        incoming.deallocate()
        outgoing.deallocate()
    }

    /// The loop's buffers.
    static func of(_ loop: EventLoop) -> TLSBuffers {
        loop.attachment(TLSBuffers.self) { TLSBuffers() }
    }
}
