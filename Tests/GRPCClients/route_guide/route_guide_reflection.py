"""Server reflection as a GUI client or grpcurl sees it, through grpcio-reflection's own client
(ProtoReflectionDescriptorDatabase behind a DescriptorPool): the services listed, then RouteGuide's
file, methods and messages described, printed in a canonical form that the example's server and the
mock must both give (route_guide_reflection.txt). Takes HOST:PORT."""

import sys

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase

# Services a server may list beside the user's: health and reflection itself, in either version.
SERVER_SERVICES = {"grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"}


def field_line(field):
    """One field: label, type (a message or enum by full name), name, number and JSON name."""
    proto = descriptor_pb2.FieldDescriptorProto
    kind = proto.Type.Name(field.type)[len("TYPE_"):].lower()
    if field.message_type is not None:
        kind = field.message_type.full_name
    elif field.enum_type is not None:
        kind = field.enum_type.full_name
    label = "repeated " if field.is_repeated else ""
    return "  %s%s %s = %d; json %s" % (label, kind, field.name, field.number, field.json_name)


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: route_guide_reflection.py HOST:PORT")
    with grpc.insecure_channel(sys.argv[1]) as channel:
        database = ProtoReflectionDescriptorDatabase(channel)
        services = list(database.get_services())
        print("services listed: %s" % ", ".join(sorted(name for name in services if name not in SERVER_SERVICES)))
        print("health listed: %s" % ("grpc.health.v1.Health" in services))
        print("reflection listed: %s" % any(name.startswith("grpc.reflection.") for name in services))
        pool = descriptor_pool.DescriptorPool(database)
        service = pool.FindServiceByName("routeguide.RouteGuide")
        print("file %s, package %s" % (service.file.name, service.file.package))
        print("service %s" % service.full_name)
        messages = []
        for method in service.methods:
            print("  rpc %s(%s%s) returns (%s%s)" % (
                method.name, "stream " if method.client_streaming else "", method.input_type.full_name,
                "stream " if method.server_streaming else "", method.output_type.full_name))
            for message in (method.input_type, method.output_type):
                if message not in messages:
                    messages.append(message)
        index = 0
        while index < len(messages):
            for field in messages[index].fields:
                if field.message_type is not None and field.message_type not in messages:
                    messages.append(field.message_type)
            index += 1
        for message in sorted(messages, key=lambda m: m.full_name):
            print("message %s" % message.full_name)
            for field in message.fields:
                print(field_line(field))
        found = pool.FindMessageTypeByName("routeguide.RouteSummary")
        print("symbol routeguide.RouteSummary in %s" % found.file.name)


if __name__ == "__main__":
    main()
