import Testing
import MockServerHTTP

/// The one reader of queries and form bodies.
@Suite("Form fields")
struct HTTPFormFieldsTests {
    @Test("order, repeats, empty values, plus and escapes; bad escapes stay as written")
    func parse() {
        let fields = HTTPFormFields.parse("a=1&b=&c&a=2&&d=x+y%21&e=%zz&f=a=b"[...])
        #expect(fields.map(\.name) == ["a", "b", "c", "a", "d", "e", "f"])
        #expect(fields.map(\.value) == ["1", "", "", "2", "x y!", "%zz", "a=b"])
        #expect(HTTPFormFields.parse(""[...]).isEmpty)
        #expect(HTTPFormFields.decode("caf%C3%A9+au+lait") == "café au lait")
    }
}
