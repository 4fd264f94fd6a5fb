import Foundation
import Testing
import MockServerFileSystem

/// The file commands on decoded paths: what `{"mkdir"}`, `{"delete"}`, `{"copy"}`/`{"move"}`,
/// WebDAV's `MKCOL`, `DELETE`, `COPY`, `MOVE` and FTP's `MKD`, `RMD`, `DELE`, `RNTO` all do.
@Suite("File store changes")
struct FileStoreChangesTests {
    static let start = Date(timeIntervalSince1970: 1_704_110_400)
    static let later = start.addingTimeInterval(60)

    static func store() -> FileStore {
        var times = FileTimes(origin: start)
        times.touch("/a.txt", at: start.addingTimeInterval(-3600))
        return FileStore(files: ["/a.txt": Array("aaa".utf8), "/docs/b.json": Array("{}".utf8), "/docs/deep/c.bin": [0, 1], "/empty/": [],
                                 "plain.txt": Array("no slash".utf8), "/x y.txt": Array("xy".utf8)], times: times)
    }

    @Test("mkdir: an empty folder with or without leading and trailing /, made now, its parent changed; never over a file, a folder or /")
    func makeFolder() {
        var store = Self.store()
        let made = store.makeFolder("new", at: Self.later)
        #expect(made && store.files["/new/"] == [] && store.times.info("/new/").created == Self.later && store.times.info("/").modified == Self.later)
        let deeper = store.makeFolder("/docs/deep/deeper/", at: Self.later)
        #expect(deeper && store.times.info("/docs/deep/").modified == Self.later)
        let implied = store.makeFolder("/under/a/missing/parent", at: Self.later)
        #expect(implied && store.tree.kind(of: "/under/a/") == .folder)
        let before = store.files
        for taken in ["/docs", "/docs/", "/a.txt", "/a.txt/", "/plain.txt", "/", "", "/x y.txt"] {
            let remade = store.makeFolder(taken, at: Self.later)
            #expect(!remade, "\(taken)")
        }
        #expect(store.files == before)
    }

    @Test("delete: a file however it is stored, a folder with everything in it, their times forgotten; nil when nothing is there")
    func remove() {
        var store = Self.store()
        let folder = store.remove("/docs", at: Self.later)
        #expect(folder == ["/docs/", "/docs/b.json", "/docs/deep/", "/docs/deep/c.bin"])
        #expect(store.files.keys.sorted() == ["/a.txt", "/empty/", "/x y.txt", "plain.txt"])
        #expect(store.times.info("/").modified == Self.later)
        let bare = store.remove("/plain.txt/", at: Self.later)
        #expect(bare == ["/plain.txt"] && store.files["plain.txt"] == nil)
        let relative = store.remove("a.txt", at: Self.later)
        #expect(relative == ["/a.txt"] && store.times.entries["/a.txt"] == nil)
        let empty = store.remove("/empty/", at: Self.later)
        #expect(empty == ["/empty/"])
        let spaced = store.remove("/x y.txt", at: Self.later)
        #expect(spaced == ["/x y.txt"] && store.files.isEmpty)
        let missing = store.remove("/missing", at: Self.later), again = store.remove("/docs", at: Self.later)
        #expect(missing == nil && again == nil)
    }

    @Test("paths and stored names are decoded already: %20 in a path is not a space, so it names no file stored as /x y.txt")
    func percentEscapesAreNotDecoded() {
        var store = Self.store()
        let removed = store.remove("/x%20y.txt", at: Self.later)
        let copied = store.copy("/x%20y.txt", to: "/z", move: false, at: Self.later)
        #expect(removed == nil && copied == nil)
        let moved = store.copy("/x y.txt", to: "/a%41", move: true, at: Self.later)
        #expect(moved?.map(\.to) == ["/a%41"] && store.files["/x y.txt"] == nil && store.files["/a%41"] == Array("xy".utf8))
        #expect(store.tree.kind(of: "/a%41") == .file(storedName: "/a%41") && store.tree.kind(of: "/aA") == nil)
    }

    @Test("delete / empties the tree")
    func removeRoot() {
        var store = Self.store()
        let removed = store.remove("/", at: Self.later)
        #expect(removed?.contains("/docs/deep/c.bin") == true)
        #expect(store.files.isEmpty && store.tree.kind(of: "/") == .folder)
    }

    @Test("copy: a file made now, a folder with everything in it, parents first; the source stays")
    func copy() {
        var store = Self.store()
        let copied = store.copy("/a.txt", to: "/docs/a2.txt/", move: false, at: Self.later)
        #expect(copied?.map(\.from) == ["/a.txt"] && copied?.map(\.to) == ["/docs/a2.txt"])
        #expect(store.files["/a.txt"] == Array("aaa".utf8) && store.files["/docs/a2.txt"] == Array("aaa".utf8))
        #expect(store.times.info("/docs/a2.txt").created == Self.later && store.times.info("/docs/").modified == Self.later)
        let folder = store.copy("docs", to: "/archive", move: false, at: Self.later)
        #expect(folder?.map(\.to) == ["/archive/", "/archive/a2.txt", "/archive/b.json", "/archive/deep/", "/archive/deep/c.bin"])
        #expect(store.files["/archive/deep/c.bin"] == [0, 1] && store.files["/docs/deep/c.bin"] == [0, 1])
        let empty = store.copy("/empty", to: "/vacant/", move: false, at: Self.later)
        #expect(empty?.map(\.to) == ["/vacant/"] && store.files["/vacant/"] == [] && store.files["/empty/"] == [])
    }

    @Test("shallow copy of a folder: the folder alone")
    func shallowCopy() {
        var store = Self.store()
        let copied = store.copy("/docs/", to: "/flat/", move: false, shallow: true, at: Self.later)
        #expect(copied?.map(\.to) == ["/flat/"] && store.tree.children(of: "/flat/").isEmpty)
    }

    @Test("move: the source goes, what moves keeps its times, a folder with everything in it")
    func move() {
        var store = Self.store()
        let moved = store.copy("/a.txt", to: "/moved.txt", move: true, at: Self.later)
        #expect(moved?.map(\.to) == ["/moved.txt"] && store.files["/a.txt"] == nil && store.files["/moved.txt"] == Array("aaa".utf8))
        #expect(store.times.info("/moved.txt").modified == Self.start.addingTimeInterval(-3600) && store.times.entries["/a.txt"] == nil)
        let folder = store.copy("/docs", to: "/archive/", move: true, at: Self.later)
        #expect(folder != nil)
        #expect(store.files.keys.sorted() == ["/archive/", "/archive/b.json", "/archive/deep/", "/archive/deep/c.bin", "/empty/", "/moved.txt", "/x y.txt",
                                              "plain.txt"])
    }

    @Test("onto what exists: a file replaces a file (stored without /) or a whole folder; a folder replaces a file")
    func replacing() {
        var store = Self.store()
        let overFile = store.copy("/a.txt", to: "/plain.txt", move: true, at: Self.later)
        #expect(overFile != nil && store.files["/plain.txt"] == Array("aaa".utf8) && store.files["plain.txt"] == nil && store.files["/a.txt"] == nil)
        let overFolder = store.copy("/plain.txt", to: "/docs", move: false, at: Self.later)
        #expect(overFolder != nil && store.files["/docs"] == Array("aaa".utf8) && store.tree.kind(of: "/docs") == .file(storedName: "/docs"))
        #expect(store.files.keys.contains { $0.hasPrefix("/docs/") } == false)
        let folderOverFile = store.copy("/empty/", to: "/docs", move: true, at: Self.later)
        #expect(folderOverFile != nil && store.tree.kind(of: "/docs") == .folder && store.files["/docs"] == nil && store.files["/empty/"] == nil)
    }

    @Test("a file moved onto the folder that holds it keeps its bytes")
    func moveOntoItsFolder() {
        var store = Self.store()
        let moved = store.copy("/docs/b.json", to: "/docs", move: true, at: Self.later)
        #expect(moved != nil && store.files.keys.filter { $0.hasPrefix("/docs") } == ["/docs"] && store.files["/docs"] == Array("{}".utf8))
    }

    @Test("refused, nothing changed: a missing source, / as either end, the same path, a folder into itself")
    func refusals() {
        var store = Self.store()
        let before = store.files
        for (source, destination) in [("/missing", "/x"), ("/", "/x"), ("/a.txt", "/"), ("/a.txt", "/a.txt/"), ("/docs", "/docs/"),
                                      ("/docs", "/docs/deep/inner"), ("docs/", "/docs/new")] {
            let copied = store.copy(source, to: destination, move: true, at: Self.later)
            #expect(copied == nil, "\(source) → \(destination)")
        }
        #expect(store.files == before)
    }
}
