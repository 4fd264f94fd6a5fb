"""The route_guide messages and stubs, generated the usual way (grpcio-tools' protoc) into a new
temporary folder each time a program starts, so that no generated Python is kept in the repository."""

import importlib
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def load():
    """Generates route_guide_pb2 and route_guide_pb2_grpc from route_guide.proto and imports them."""
    from grpc_tools import protoc

    out = tempfile.mkdtemp(prefix="route_guide_stubs_")
    status = protoc.main(["grpc_tools.protoc", "-I" + HERE, "--python_out=" + out, "--grpc_python_out=" + out,
                          os.path.join(HERE, "route_guide.proto")])
    if status != 0:
        raise SystemExit("protoc could not compile %s (status %d)" % (os.path.join(HERE, "route_guide.proto"), status))
    sys.path.insert(0, out)
    return importlib.import_module("route_guide_pb2"), importlib.import_module("route_guide_pb2_grpc")
