/// A pointer to an OpenSSL object that is finished when it is made (a key, a certificate, a
/// client context) and only read afterwards, which OpenSSL allows from several threads at once
/// (it counts its own references inside). The classes that own such an object free it in their
/// `deinit` and are plainly `Sendable` through this one handle.
/// Kept: wraps a C pointer, which Swift never marks `Sendable`; one wrapper for the key, the
/// certificate and the client context, each `@unchecked Sendable` on its own until session 28.
struct OpenSSLHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }
}
