"""Writes a FileDescriptorSet of the files MockServer builds in, from the descriptors Python's packages
carry (protobuf, googleapis-common-protos, grpcio-reflection, grpcio-health-checking), under the names
MockServer gives them; reflection v1 is v1alpha's schema in package grpc.reflection.v1, not deprecated (its
Python package has no v1). Usage: proto_builtins.py OUT.pb"""
import importlib
import sys
from google.protobuf import descriptor_pb2 as d

MODULES = ["google.protobuf.any_pb2", "google.protobuf.api_pb2", "google.protobuf.duration_pb2", "google.protobuf.empty_pb2",
           "google.protobuf.field_mask_pb2", "google.protobuf.source_context_pb2", "google.protobuf.struct_pb2",
           "google.protobuf.timestamp_pb2", "google.protobuf.type_pb2", "google.protobuf.wrappers_pb2",
           "google.protobuf.descriptor_pb2", "google.rpc.status_pb2", "google.rpc.code_pb2", "google.rpc.error_details_pb2",
           "grpc_reflection.v1alpha.reflection_pb2", "grpc_health.v1.health_pb2"]
RENAMED = {"grpc_reflection/v1alpha/reflection.proto": "grpc/reflection/v1alpha/reflection.proto",
           "grpc_health/v1/health.proto": "grpc/health/v1/health.proto"}

out = d.FileDescriptorSet()
for module in MODULES:
    file = out.file.add()
    importlib.import_module(module).DESCRIPTOR.CopyToProto(file)
    file.name = RENAMED.get(file.name, file.name)
    if file.name == "grpc/reflection/v1alpha/reflection.proto":
        v1 = out.file.add()
        v1.CopyFrom(file)
        v1.name = "grpc/reflection/v1/reflection.proto"
        v1.package = "grpc.reflection.v1"
        v1.options.java_package = "io.grpc.reflection.v1"
        v1.options.go_package = "google.golang.org/grpc/reflection/grpc_reflection_v1"
        v1.options.ClearField("deprecated")
        for message in v1.message_type:
            for field in message.field:
                field.type_name = field.type_name.replace(".grpc.reflection.v1alpha.", ".grpc.reflection.v1.")
        for service in v1.service:
            for method in service.method:
                method.input_type = method.input_type.replace(".grpc.reflection.v1alpha.", ".grpc.reflection.v1.")
                method.output_type = method.output_type.replace(".grpc.reflection.v1alpha.", ".grpc.reflection.v1.")


def camel(name):
    parts = name.split("_")
    return parts[0] + "".join(part[:1].upper() + part[1:] for part in parts[1:])


def add_json_names(message):
    for field in message.field:
        if not field.HasField("json_name"):
            field.json_name = camel(field.name)
    for nested in message.nested_type:
        add_json_names(nested)


# CopyToProto leaves json_name out where protoc writes it for every field: it is put back as protoc makes it.
# The v1 copy's replace() above set an empty type_name on scalar fields: it is cleared again.
for file in out.file:
    for message in file.message_type:
        add_json_names(message)
        for field in message.field:
            if field.HasField("type_name") and not field.type_name:
                field.ClearField("type_name")
with open(sys.argv[1], "wb") as handle:
    handle.write(out.SerializeToString())
