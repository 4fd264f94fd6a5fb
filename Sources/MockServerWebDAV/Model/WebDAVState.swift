/// What WebDAV keeps beside the server's files and their times: dead properties and locks.
package struct WebDAVState: Sendable {
    /// Dead properties by path (folder paths end in `/`): each value is the property element's
    /// children, as XML.
    package var properties: [String: [WebDAVPropertyName: String]] = [:]
    /// The locks in force (expired ones are dropped as requests come).
    package var locks: [WebDAVLock] = []

    package init() {}
}
