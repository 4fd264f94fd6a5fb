#if os(Linux)
import CMockServerLinux
#endif

/// How the process's C allocator gives memory back, for a server that runs long and serves bursts.
package enum ProcessMemory {
    /// The size from which ``returnLargeBlocksWhenFreed()`` has blocks given back at once: 1 MiB.
    package static let largeBlockSize = 1 << 20

    /// Has every allocation of ``largeBlockSize`` bytes or more mapped on its own and given back to
    /// the system as soon as it is freed, so that the memory a burst took (answers rendered for a
    /// hundred slow clients) goes back once the burst ends.
    ///
    /// glibc does this for blocks from 128 KiB at first, but raises the size each time it frees such
    /// a block (up to 32 MiB): after the first 5 MiB answer, the next ones come from the heap, which
    /// keeps what it held at its peak. Fixing the size turns that off. Each large block then costs a
    /// `mmap` and a `munmap`, about what touching its pages costs anyway. Darwin's allocator gives
    /// large blocks back by itself: nothing is done there. Called once, at the start of the
    /// `mockserver` command; a library leaves its host process's allocator alone.
    ///
    /// - Returns: whether the allocator took the setting.
    @discardableResult
    package static func returnLargeBlocksWhenFreed() -> Bool {
        #if os(Linux)
        return CMockServer_setMmapThreshold(largeBlockSize) != 0
        #else
        return false
        #endif
    }
}
