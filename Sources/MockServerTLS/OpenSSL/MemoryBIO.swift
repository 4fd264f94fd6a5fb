/// OpenSSL's in-memory `BIO`s, as the package uses them: a connection's two buffers, and the
/// place a PEM text is written to or read from.
package enum MemoryBIO {
    /// A new empty memory BIO that reports "retry" (not end of file) when read empty.
    static func make(_ library: OpenSSLLibrary) -> OpaquePointer? {
        guard let bio = library.BIO_new(library.BIO_s_mem()) else { return nil }
        _ = library.BIO_ctrl(bio, OpenSSLConstant.BIOControl.setEndOfFileReturn, -1, nil)
        return bio
    }

    /// How many bytes `bio` holds.
    static func pending(_ library: OpenSSLLibrary, _ bio: OpaquePointer) -> Int {
        library.BIO_ctrl(bio, OpenSSLConstant.BIOControl.pending, 0, nil)
    }

    /// Everything `write` puts into a fresh memory BIO, as text; empty when it fails.
    static func collect(_ library: OpenSSLLibrary, _ write: (OpaquePointer) -> Bool) -> String {
        guard let bio = make(library) else { return "" }
        defer { _ = library.BIO_free(bio) }
        guard write(bio) else { return "" }
        var bytes = [UInt8](repeating: 0, count: pending(library, bio))
        let count = bytes.withUnsafeMutableBytes { library.BIO_read(bio, $0.baseAddress, Int32($0.count)) }
        return String(decoding: bytes.prefix(max(0, Int(count))), as: UTF8.self)
    }

    /// Runs `read` on a read-only BIO over `text`'s bytes.
    static func reading<T>(_ library: OpenSSLLibrary, _ text: String, _ read: (OpaquePointer) -> T) -> T? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { raw -> T? in
            guard let bio = library.BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { _ = library.BIO_free(bio) }
            return read(bio)
        }
    }
}
