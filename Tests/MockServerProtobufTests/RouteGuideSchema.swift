import MockServerProtobuf

/// A schema built by hand for the JSON codec's unit tests: route_guide's Point and Feature, and a
/// message of features with a map, an enum, an int64, a packed repeated field and a Timestamp.
enum RouteGuideSchema {
    static let schema = ProtoSchema(files: [ProtoFile(
        name: "route_guide.proto", package: "routeguide",
        messages: [
            ProtoMessage(name: "Point", fullName: "routeguide.Point", fields: [
                ProtoField(name: "latitude", number: 1, label: .implicit, type: .int32),
                ProtoField(name: "longitude", number: 2, label: .implicit, type: .int32),
                ProtoField(name: "lat_e7", number: 3, label: .implicit, type: .sint64),
            ]),
            ProtoMessage(name: "Feature", fullName: "routeguide.Feature", fields: [
                ProtoField(name: "name", number: 1, label: .implicit, type: .string),
                ProtoField(name: "location", number: 2, label: .implicit, type: .message(".routeguide.Point")),
            ]),
            ProtoMessage(name: "Features", fullName: "routeguide.Features", fields: [
                ProtoField(name: "features", number: 1, label: .repeated, type: .message(".routeguide.Feature")),
                ProtoField(name: "labels", number: 2, label: .repeated, type: .message(".routeguide.Features.LabelsEntry")),
                ProtoField(name: "color", number: 3, label: .implicit, type: .enum(".routeguide.Color")),
                ProtoField(name: "big", number: 4, label: .implicit, type: .int64),
                ProtoField(name: "ids", number: 5, label: .repeated, type: .int32, isPacked: true),
                ProtoField(name: "at", number: 6, label: .implicit, type: .message(".google.protobuf.Timestamp")),
                ProtoField(name: "text", number: 7, label: .implicit, type: .string, oneofIndex: 0),
                ProtoField(name: "code", number: 8, label: .implicit, type: .int32, oneofIndex: 0),
                ProtoField(name: "extra", number: 9, label: .implicit, type: .message(".google.protobuf.Struct")),
            ], oneofs: ["kind"], nestedMessages: [
                ProtoMessage(name: "LabelsEntry", fullName: "routeguide.Features.LabelsEntry", fields: [
                    ProtoField(name: "key", number: 1, label: .implicit, type: .string),
                    ProtoField(name: "value", number: 2, label: .implicit, type: .int32),
                ], isMapEntry: true),
            ]),
            ProtoMessage(name: "Chain", fullName: "routeguide.Chain", fields: [
                ProtoField(name: "next", number: 1, label: .implicit, type: .message(".routeguide.Chain")),
                ProtoField(name: "value", number: 2, label: .implicit, type: .int32),
            ]),
        ],
        enums: [ProtoEnum(name: "Color", fullName: "routeguide.Color", values: [.init(name: "COLOR_UNSPECIFIED", number: 0), .init(name: "RED", number: 1)])]
    )])

    static let codec = ProtoJSONCodec(schema: schema)
}
