/// Cuts a byte stream into input units (lines, requests) for a responder.
///
/// A framer is pure: bytes in, units out. One `read()` is never assumed to be one unit.
public protocol InputFramer: Sendable {
    /// Adds bytes received from the peer.
    mutating func append(_ bytes: UnsafeRawBufferPointer)
    /// Removes and returns the next complete unit, or `nil` when more bytes are needed.
    ///
    /// - Throws: ``FramingError`` when the buffered input can never form a valid unit.
    mutating func next() throws(FramingError) -> [UInt8]?
    /// Returns what is left once the peer has finished sending, or `nil` when nothing is left.
    ///
    /// - Throws: ``FramingError`` when the leftover bytes are not a valid unit.
    mutating func finish() throws(FramingError) -> [UInt8]?
    /// How many bytes are buffered and not yet returned.
    var bufferedCount: Int { get }
}
