import Foundation
import MockServerCore
import MockServerFileSystem
import MockServerHTTP
import MockServerScript
import MockServerWebDAV

/// The shared script commands that change the server's files, read as paths of a WebDAV tree
/// (absolute URIs and `Destination` headers included).
extension ServerCore {
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
