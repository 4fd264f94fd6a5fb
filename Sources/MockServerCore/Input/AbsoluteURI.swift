/// Request targets in absolute form (`scheme://authority/path?query`, RFC 9112 §3.2.2), which
/// clients send to proxies and WebDAV clients put in `Destination`: what a server reads of them
/// is what follows the authority.
package enum AbsoluteURI {
    /// What follows the authority of `target` when it is an absolute URI (a scheme, then `://`,
    /// before any `/`): from the first `/` after the authority on, or `/` when there is none
    /// (`http://host` and `http://host?query` both name the root). Any other target (a path,
    /// `*`, an authority alone) comes back as it is.
    package static func pathOnward(of target: Substring) -> Substring {
        let bytes = target.utf8
        guard let slash = bytes.firstIndex(of: UInt8(ascii: "/")), slash > bytes.startIndex else { return target }
        let colon = bytes.index(before: slash)
        let second = bytes.index(after: slash)
        guard bytes[colon] == UInt8(ascii: ":"), colon > bytes.startIndex, second < bytes.endIndex, bytes[second] == UInt8(ascii: "/") else { return target }
        let authority = bytes.index(after: second)
        guard let path = bytes[authority...].firstIndex(of: UInt8(ascii: "/")) else { return "/" }
        return target[path...]
    }
}
