"""Compares two FileDescriptorSets field by field with Python's protobuf package: ours (MockServer's
parser, then its FileDescriptorProto writer) and protoc's. Usage: proto_descriptors.py OURS.pb PROTOC.pb
[SKIPPED-FILE...] (a file skipped is not compared: the caller says why).
Prints one line per difference (nothing when they agree) after dropping what MockServer's schema does
not keep, each for its reason:
- source_code_info: protoc writes it only when asked (--include_source_info); the model has no comments;
- extensions (file- and message-level `extension`) and `extension_range`: extensions are parsed and ignored;
- `reserved_range`, `reserved_name`: checked while parsing, not kept;
- options other than FileOptions' kept ones (go_package, java_package...), FieldOptions.packed,
  MessageOptions.map_entry and EnumOptions.allow_alias: parsed and ignored (deprecated, custom options...);
- FieldOptions.packed = true in proto3, where it is the default: the model keeps whether a field is
  packed, not whether the file said so.
"""
import sys
from google.protobuf import descriptor_pb2 as d

KEPT_FILE_OPTIONS = {"java_package", "java_outer_classname", "optimize_for", "java_multiple_files", "go_package",
                     "cc_generic_services", "java_generic_services", "py_generic_services", "java_generate_equals_and_hash",
                     "deprecated", "java_string_check_utf8", "cc_enable_arenas", "objc_class_prefix", "csharp_namespace",
                     "swift_prefix", "php_class_prefix", "php_namespace", "php_metadata_namespace", "ruby_package"}


def keep_only(options, names):
    for field, _ in options.ListFields():
        if field.name not in names:
            options.ClearField(field.name)
    options.DiscardUnknownFields()


def normalize_message(message, proto3):
    message.ClearField("extension")
    message.ClearField("extension_range")
    message.ClearField("reserved_range")
    message.ClearField("reserved_name")
    keep_only(message.options, {"map_entry"})
    if not message.options.ListFields():
        message.ClearField("options")
    for oneof in message.oneof_decl:
        oneof.ClearField("options")
    for field in message.field:
        keep_only(field.options, {"packed"})
        if proto3 and field.options.HasField("packed") and field.options.packed:
            field.options.ClearField("packed")
        if not field.options.ListFields():
            field.ClearField("options")
    for nested in message.nested_type:
        normalize_message(nested, proto3)
    for enum in message.enum_type:
        normalize_enum(enum)


def normalize_enum(enum):
    keep_only(enum.options, {"allow_alias"})
    if not enum.options.ListFields():
        enum.ClearField("options")
    enum.ClearField("reserved_range")
    enum.ClearField("reserved_name")
    for value in enum.value:
        value.ClearField("options")


def normalize(file):
    file.ClearField("source_code_info")
    file.ClearField("extension")
    keep_only(file.options, KEPT_FILE_OPTIONS)
    if not file.options.ListFields():
        file.ClearField("options")
    proto3 = file.syntax == "proto3"
    for message in file.message_type:
        normalize_message(message, proto3)
    for enum in file.enum_type:
        normalize_enum(enum)
    for service in file.service:
        service.ClearField("options")
        for method in service.method:
            method.ClearField("options")
    return file


def read(path):
    files = d.FileDescriptorSet()
    with open(path, "rb") as handle:
        files.ParseFromString(handle.read())
    return {file.name: normalize(file) for file in files.file}


ours, theirs = read(sys.argv[1]), read(sys.argv[2])
for name in sorted((set(ours) | set(theirs)) - set(sys.argv[3:])):
    if name not in ours:
        print(f"{name}: only protoc's set has it")
    elif name not in theirs:
        print(f"{name}: only ours has it")
    elif ours[name] != theirs[name]:
        ours_text = str(ours[name]).splitlines()
        theirs_text = str(theirs[name]).splitlines()
        import difflib
        diff = [line for line in difflib.unified_diff(theirs_text, ours_text, "protoc", "ours", lineterm="", n=2)]
        print(f"{name}: differs\n" + "\n".join(diff[:60]))
