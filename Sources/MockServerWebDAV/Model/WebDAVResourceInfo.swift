import Foundation

/// What the server keeps about a file or folder besides its bytes: when it was made and changed,
/// and the dead properties clients set with `PROPPATCH`.
package struct WebDAVResourceInfo: Sendable, Hashable {
    package var created: Date
    package var modified: Date
    /// Dead properties: each value is the property element's children, as XML.
    package var properties: [WebDAVPropertyName: String] = [:]

    package init(at date: Date) {
        created = date
        modified = date
    }
}
