/// Why a header block could not be decoded (RFC 7541). Every one of them is a connection error of
/// type COMPRESSION_ERROR (RFC 9113 §4.3), except `headerListTooLarge`, which leaves the decoder in
/// step with its peer and so may be answered on the stream alone (RFC 9113 §10.5.1).
package enum HPACKError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The block ended inside an integer (§5.1).
    case truncatedInteger
    /// An integer past `HPACKInteger.maximum`, or with more continuation bytes than one needs.
    case integerOverflow
    /// The block ended inside a string literal: its length says `length`, `available` bytes were left.
    case truncatedString(length: Int, available: Int)
    /// A Huffman-coded string whose padding is longer than seven bits or not all ones (§5.2).
    case invalidHuffmanPadding
    /// A Huffman-coded string that contains EOS (§5.2).
    case huffmanEOS
    /// An indexed representation with index 0 (§6.1).
    case indexZero
    /// An index past the static and dynamic tables, which hold `tableCount` entries together (§2.3.3).
    case indexOutOfRange(index: Int, tableCount: Int)
    /// A dynamic table size update above the limit the decoder advertised (§6.3).
    case tableSizeAboveLimit(size: Int, limit: Int)
    /// A dynamic table size update after the block's first field (§4.2).
    case tableSizeUpdateNotAtStart
    /// A block that does not start with the table size update the decoder's lowered limit requires (§4.2).
    case missingTableSizeUpdate(limit: Int)
    /// A header list larger than `limit` (name and value lengths plus 32 per field, RFC 9113 §6.5.2).
    case headerListTooLarge(limit: Int)

    package var description: String {
        switch self {
        case .truncatedInteger: "HPACK: the header block ends inside an integer"
        case .integerOverflow: "HPACK: an integer is larger than \(HPACKInteger.maximum)"
        case let .truncatedString(length, available): "HPACK: a string of \(length) bytes with \(available) left in the block"
        case .invalidHuffmanPadding: "HPACK: a Huffman string's padding is not at most seven one bits"
        case .huffmanEOS: "HPACK: a Huffman string contains EOS"
        case .indexZero: "HPACK: an indexed field with index 0"
        case let .indexOutOfRange(index, count): "HPACK: index \(index) is past the tables' \(count) entries"
        case let .tableSizeAboveLimit(size, limit): "HPACK: a dynamic table size update to \(size) above the limit \(limit)"
        case .tableSizeUpdateNotAtStart: "HPACK: a dynamic table size update after a header field"
        case let .missingTableSizeUpdate(limit): "HPACK: the block does not start with the size update to at most \(limit) that the lowered limit requires"
        case let .headerListTooLarge(limit): "HPACK: the header list is larger than \(limit) bytes"
        }
    }

    /// The HTTP/2 error that answers this one: COMPRESSION_ERROR on the connection, or, for a header
    /// list that is too large, PROTOCOL_ERROR on the stream `streamID` (the decoder read the whole
    /// block, so the connection's compression state is intact).
    package func http2Error(streamID: UInt32) -> HTTP2Error {
        if case .headerListTooLarge = self {
            return HTTP2Error(.protocolError, stream: streamID, description)
        }
        return HTTP2Error(.compressionError, description)
    }
}
