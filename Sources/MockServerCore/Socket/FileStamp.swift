#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `stat(2)` says of a file, enough to tell whether it changed since it was read: which file
/// it is (device and inode), its kind, size and modification time. Symbolic links are followed.
package struct FileStamp: Sendable, Hashable {
    /// The device the file lives on.
    package let device: UInt64
    /// The file's inode on that device.
    package let inode: UInt64
    /// The size in bytes.
    package let size: Int64
    /// The modification time, in nanoseconds since 1970.
    package let modified: Int64
    /// Whether it is a regular file.
    package let isRegularFile: Bool
    /// Whether it is a directory.
    package let isDirectory: Bool

    /// The stamp of the file at `path`, or `nil` when it cannot be examined (it does not exist, or
    /// a folder on the way cannot be searched).
    package init?(path: String) {
        var status = stat()
        guard Syscall.retrying({ stat(path, &status) }) == 0 else { return nil }
        device = UInt64(truncatingIfNeeded: status.st_dev)
        inode = UInt64(truncatingIfNeeded: status.st_ino)
        size = Int64(status.st_size)
        #if canImport(Darwin)
        let time = status.st_mtimespec
        #else
        let time = status.st_mtim
        #endif
        modified = Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
        // mode_t is 16 bits on Darwin and 32 on Linux; the S_IF* constants are Int32 on Darwin.
        let kind = UInt32(status.st_mode) & UInt32(S_IFMT)
        isRegularFile = kind == UInt32(S_IFREG)
        isDirectory = kind == UInt32(S_IFDIR)
    }
}
