import Testing
import MockServerFileSystem

/// The one folder model: stored names (with or without a leading `/`, percent-encoded or not, a
/// trailing `/` for an empty folder) seen as decoded paths, files and folders.
@Suite("File tree")
struct FileTreeTests {
    static let files: [String: [UInt8]] = [
        "/a.txt": Array("aaa".utf8),
        "/docs/b.json": Array("{}".utf8),
        "/docs/deep/c.bin": [0, 1],
        "/empty/": [],
        "plain.txt": Array("no slash".utf8),
        "/x y.txt": [],
    ]
    let tree = FileTree(files: Self.files)

    @Test("a path names a file or a folder with or without its leading and trailing /; folders above a file are implied")
    func kinds() {
        #expect(tree.kind(of: "/a.txt") == .file(storedName: "/a.txt"))
        #expect(tree.kind(of: "/a.txt/") == .file(storedName: "/a.txt"))
        #expect(tree.kind(of: "/plain.txt") == .file(storedName: "plain.txt"))
        #expect(tree.kind(of: "/docs") == .folder && tree.kind(of: "/docs/") == .folder && tree.kind(of: "/docs/deep") == .folder)
        #expect(tree.kind(of: "/empty") == .folder && tree.kind(of: "/") == .folder)
        #expect(tree.kind(of: "/missing") == nil && tree.kind(of: "/docs/b") == nil)
    }

    @Test("stored names are decoded paths already: the tree does not decode them again (a % in a name is a %)")
    func decodedNames() {
        #expect(tree.kind(of: "/x y.txt") == .file(storedName: "/x y.txt"))
        #expect(tree.kind(of: "/x%20y.txt") == nil)
        #expect(FileTree(files: ["/100%25.txt": []]).kind(of: "/100%25.txt") == .file(storedName: "/100%25.txt"))
        #expect(FileTree(files: ["/100%25.txt": []]).kind(of: "/100%.txt") == nil)
        #expect(FileTree(files: ["/a%41": []]).kind(of: "/aA") == nil)
    }

    @Test("children are one level down, folders ending in /, sorted; the subtree is everything below, parents first")
    func listings() {
        #expect(tree.children(of: "/") == ["/a.txt", "/docs/", "/empty/", "/plain.txt", "/x y.txt"])
        #expect(tree.children(of: "/docs") == ["/docs/b.json", "/docs/deep/"])
        #expect(tree.children(of: "/empty/").isEmpty)
        #expect(tree.subtree(of: "/docs") == ["/docs/", "/docs/b.json", "/docs/deep/", "/docs/deep/c.bin"])
        #expect(tree.subtree(of: "/a.txt/") == ["/a.txt"])
        #expect(tree.subtree(of: "/missing").isEmpty)
    }
}
