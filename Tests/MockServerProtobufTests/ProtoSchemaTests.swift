import MockServerProtobuf
import Testing

@Suite struct ProtoSchemaTests {
    @Test func indexesNestedTypesAndFindsMethodsByPath() {
        let point = ProtoMessage(name: "Point", fullName: "rg.Point", fields: [
            ProtoField(name: "lat_e7", number: 1, label: .implicit, type: .int32),
        ], nestedEnums: [ProtoEnum(name: "Kind", fullName: "rg.Point.Kind", values: [.init(name: "A", number: 0)])])
        let service = ProtoService(name: "Guide", fullName: "rg.Guide", methods: [.init(name: "Get", inputType: ".rg.Point", outputType: ".rg.Point")])
        let schema = ProtoSchema(files: [ProtoFile(name: "rg.proto", package: "rg", messages: [point], services: [service]),
                                         ProtoFile(name: "rg.proto")])
        #expect(schema.files.count == 1)
        #expect(schema.message(".rg.Point")?.fields.first?.jsonName == "latE7")
        #expect(schema.enumType("rg.Point.Kind")?.values.count == 1)
        #expect(schema.fileOfSymbol["rg.Point.Kind"] == "rg.proto")
        #expect(schema.method(path: "/rg.Guide/Get")?.method.name == "Get")
        #expect(schema.method(path: "/rg.Guide/Put") == nil)
    }
}
