import Testing
import MockServerFileSystem

/// One entity tag per file, in one format, whatever serves it.
@Suite("File entity tags")
struct FileETagTests {
    @Test("a file's tag is its FNV-1a hash and length in hex, quoted: equal bytes agree, other bytes differ")
    func fileTags() {
        #expect(FileETag.of([]) == "\"cbf29ce484222325-0\"")
        #expect(FileETag.of(Array("a".utf8)) == "\"af63dc4c8601ec8c-1\"")
        #expect(FileETag.of(Array("aaa".utf8)) == FileETag.of(Array("aaa".utf8)))
        #expect(FileETag.of(Array("aaa".utf8)) != FileETag.of(Array("bbb".utf8)))
    }

    @Test("a path's tag: the stored file's (named with or without /), a weak one for a folder that follows its contents, nil for nothing")
    func pathTags() throws {
        let files: [String: [UInt8]] = ["plain.txt": Array("x".utf8), "/docs/a.txt": Array("a".utf8)]
        let tree = FileTree(files: files)
        #expect(FileETag.of("/plain.txt", in: tree, files: files) == FileETag.of(Array("x".utf8)))
        #expect(FileETag.of("/missing", in: tree, files: files) == nil)
        let folder = try #require(FileETag.of("/docs/", in: tree, files: files))
        #expect(folder.hasPrefix("W/\"") && FileETag.of("/docs", in: tree, files: files) == folder)
        var changed = files
        changed["/docs/a.txt"] = Array("b".utf8)
        #expect(FileETag.of("/docs/", in: FileTree(files: changed), files: changed) != folder)
    }
}
