import Foundation
import MockServerCore
import MockServerFileSystem
import MockServerFTP
import MockServerHTTP
import MockServerScript
import MockServerWebDAV

/// The script commands that read and change the server's files as a WebDAV tree, shared by the
/// HTTP and the line drivers.
extension ServerCore {
    /// Stores the body of `input` (de-chunked; the whole unit when it is not an HTTP request) as
    /// the file `name`, and records it as an upload of `connection`.
    func saveBody(of input: InputUnit, request: HTTPRequest?, as name: String, connection: Int) {
        let body = (request ?? HTTPRequest(parsing: input.bytes))?.body ?? input.bytes
        storeFile(name, body)
        recordUpload(Upload(name: name, data: Data(body), connection: connection))
    }

    /// A `PROPFIND` answer for `request`: 207 with the listing at its `Depth`, or 404.
    func propfindResponse(for request: HTTPRequest?) -> HTTPResponse {
        WebDAVTree(files: files).propfindResponse(target: request?.target ?? "/", depthHeader: request?.headers["Depth"])
    }

    /// The `«webdav»` answer to `request`: a WebDAV server over the files. A stored `PUT` body is
    /// recorded as an upload of `connection`.
    func webdavResponse(for request: HTTPRequest?, connection: Int) -> HTTPResponse {
        guard let request else {
            return HTTPResponse(status: 400, headers: ["Content-Type": "text/plain"], body: Array("«webdav» answers HTTP requests only\n".utf8))
        }
        let (response, stored) = withFiles { files, times, state in
            var handler = WebDAVHandler(request: request, files: files, times: times, state: state, now: configuration.clock())
            let response = handler.respond()
            files = handler.files
            times = handler.times
            state = handler.state
            return (response, handler.stored)
        }
        if let stored { recordUpload(Upload(name: stored.path, data: Data(stored.bytes), connection: connection)) }
        return response
    }

    /// The `«ftp»` answer to the command `line` of a session in `session`.
    func ftpAnswer(to line: String, session: inout FTPSessionState) -> FTPAnswer {
        let data = self.data
        let listing = self.listing
        let now = configuration.clock()
        return withFiles { files, times, _ in
            var system = FTPFileSystem(files: files, times: times, data: data, listing: listing, now: now)
            let answer = system.answer(line, session: &session)
            files = system.files
            times = system.times
            return answer
        }
    }

    /// Stores an `«ftp»` upload as the file at `path` (from `offset`), and records it as an upload.
    func storeFTPUpload(_ bytes: [UInt8], at path: String, offset: Int, connection: Int) {
        let now = configuration.clock()
        withFiles { files, times, _ in
            var system = FTPFileSystem(files: files, times: times, data: [], now: now)
            system.store(bytes, at: path, offset: offset)
            files = system.files
            times = system.times
        }
        // Named as `--files` names files: relative to the root (`up.bin`, `sub/up.bin`).
        recordUpload(Upload(name: String(path.drop { $0 == "/" }), data: Data(bytes), connection: connection))
    }

    /// Creates an empty folder; `false` when something is there.
    func makeFolder(_ target: String) -> Bool {
        let path = WebDAVTree.path(ofTarget: target)
        return updateFiles { WebDAVTree(files: $0).makingFolder(path) }
    }

    /// Deletes a file or a folder; `false` when nothing is there.
    func deleteFile(_ target: String) -> Bool {
        let path = WebDAVTree.path(ofTarget: target)
        return updateFiles { WebDAVTree(files: $0).deleting(path) }
    }

    /// Copies or moves a file or a folder; `false` when the source is missing.
    func copyFile(_ source: String, to destination: String, move: Bool) -> Bool {
        let from = WebDAVTree.path(ofTarget: source)
        let to = WebDAVTree.path(ofTarget: destination)
        return updateFiles { WebDAVTree(files: $0).copying(from, to: to, removingSource: move) }
    }

    /// The substitution context for one step: `base` with the selected file's bytes (or the data).
    func substitutionContext(base: SubstitutionContext, selectedFile: String?) -> SubstitutionContext {
        var context = base
        let content = content()
        if let name = selectedFile {
            context.fileName = name
            context.data = content.files[name] ?? content.data
        } else {
            context.data = content.data
        }
        return context
    }
}
