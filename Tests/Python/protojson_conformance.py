"""The proto3 JSON mapping by Python's protobuf package, for MockServer's conformance table
(Tests/MockServerProtobufTests/ProtoJSONConformanceTests.swift).

    python3 protojson_conformance.py cases FIXTURES    # reads cases on stdin, writes results

FIXTURES/*.proto are compiled with grpc_tools.protoc. `cases` reads a JSON list of {"type", "json", "ours"} (ours: MockServer's bytes of the
JSON in base64, or null when MockServer refused it) or {"type", "binary"} (bytes in base64, read
with FromString) and writes one result per case:
  python_ok, python_error     whether json_format.Parse accepted the JSON (FromString the bytes,
                              and MessageToJson wrote them);
  same_message                whether MockServer's bytes parse to a message equal to Python's;
  python_binary               Python's bytes (SerializeToString, deterministic), base64;
  python_json                 MessageToJson of Python's message, as a JSON value;
  python_json_defaults        the same with always_print_fields_with_no_presence.
"""
import base64
import glob
import importlib
import json
import os
import sys
import tempfile

from google.protobuf import json_format
from google.protobuf import symbol_database
import grpc_tools
from grpc_tools import protoc


def compile_fixtures(fixtures):
    out = tempfile.mkdtemp()
    include = os.path.join(os.path.dirname(grpc_tools.__file__), "_proto")
    files = sorted(os.path.basename(path) for path in glob.glob(os.path.join(fixtures, "*.proto")))
    status = protoc.main(["protoc", "-I" + fixtures, "-I" + include, "--python_out=" + out] + files)
    if status != 0:
        raise SystemExit("protoc failed: %d" % status)
    sys.path.insert(0, out)
    return [importlib.import_module(name[:-len(".proto")] + "_pb2") for name in files]


def message_class(type_name):
    return symbol_database.Default().GetSymbol(type_name)


def main():
    mode, fixtures = sys.argv[1], sys.argv[2]
    modules = compile_fixtures(fixtures)
    if mode != "cases":
        raise SystemExit("usage: protojson_conformance.py cases FIXTURES")
    cases = json.load(sys.stdin)
    results = []
    for case in cases:
        cls = message_class(case["type"])
        result = {"python_ok": False, "python_error": None, "same_message": None,
                  "python_binary": None, "python_json": None, "python_json_defaults": None}
        try:
            if case.get("binary") is not None:
                message = cls.FromString(base64.b64decode(case["binary"]))
            else:
                message = json_format.Parse(case["json"], cls())
            result["python_ok"] = True
        except Exception as error:  # Python's refusals: ParseError, and ValueError for some values.
            result["python_error"] = "%s: %s" % (type(error).__name__, error)
            message = None
        if message is not None:
            result["python_binary"] = base64.b64encode(message.SerializeToString(deterministic=True)).decode()
            try:
                result["python_json"] = json.loads(json_format.MessageToJson(message))
                result["python_json_defaults"] = json.loads(
                    json_format.MessageToJson(message, always_print_fields_with_no_presence=True))
            except Exception as error:
                result["python_ok"] = False
                result["python_error"] = "MessageToJson: %s: %s" % (type(error).__name__, error)
            if case.get("ours") is not None:
                try:
                    ours = cls.FromString(base64.b64decode(case["ours"]))
                    result["same_message"] = ours == message
                except Exception as error:
                    result["same_message"] = False
                    result["python_error"] = "our bytes: %s: %s" % (type(error).__name__, error)
        results.append(result)
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
