import Foundation
import Testing
import MockServerFileSystem

/// A store's tree is made once for its files and kept: every way of changing the files must show
/// in the next tree, and a copy that changes its files must not change the original's.
@Suite("File store's tree")
struct FileStoreTreeTests {
    private static func store() -> FileStore {
        FileStore(files: ["/a.txt": Array("aaa".utf8), "docs/b.json": []], times: FileTimes(origin: Date(timeIntervalSince1970: 0)))
    }

    @Test("a file stored, removed or replaced after the tree was read shows in the next tree")
    func followsChanges() {
        var store = Self.store()
        #expect(store.tree.kind(of: "/docs") == .folder && store.tree.kind(of: "/new.txt") == nil)
        store.files["/new.txt"] = [1]
        #expect(store.tree.kind(of: "/new.txt") == .file(storedName: "/new.txt"))
        store.files["/a.txt"] = nil
        #expect(store.tree.kind(of: "/a.txt") == nil)
        store.files = ["/only/c.txt": []]
        #expect(store.tree.kind(of: "/docs") == nil && store.tree.kind(of: "/only") == .folder)
    }

    @Test("the store's own changes (a folder made, a subtree removed, a move) show in the next tree")
    func followsStoreChanges() {
        var store = Self.store()
        _ = store.tree
        store.makeFolder("/made", at: Date(timeIntervalSince1970: 1))
        #expect(store.tree.kind(of: "/made") == .folder)
        store.remove("/docs", at: Date(timeIntervalSince1970: 2))
        #expect(store.tree.kind(of: "/docs/b.json") == nil && store.tree.kind(of: "/docs") == nil)
        store.copy("/a.txt", to: "/made/a.txt", move: true, at: Date(timeIntervalSince1970: 3))
        #expect(store.tree.kind(of: "/a.txt") == nil && store.tree.kind(of: "/made/a.txt") == .file(storedName: "/made/a.txt"))
    }

    @Test("a copy that changes its files has its own tree; the original keeps the tree of its files")
    func copiesApart() {
        let original = Self.store()
        _ = original.tree
        var copy = original
        copy.files["/copy.txt"] = []
        #expect(copy.tree.kind(of: "/copy.txt") == .file(storedName: "/copy.txt"))
        #expect(original.tree.kind(of: "/copy.txt") == nil)
        #expect(original.tree.kind(of: "/a.txt") == .file(storedName: "/a.txt"))
    }
}
