/// One chunk of a ``TranscriptBytes``: a block of memory of its own, freed with the chunk.
///
/// Raw memory rather than an `[UInt8]`: a run is copied in with one `memcpy` through the store's
/// cursor, without an array's uniqueness check, capacity check and generic append at each entry.
/// Only pages that bytes were written to are ever resident.
final class TranscriptChunk {
    /// The chunk's first byte.
    let bytes: UnsafeMutableRawPointer

    /// A chunk of `capacity` bytes, none written yet.
    init(capacity: Int) {
        bytes = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        bytes.deallocate()
    }
}
