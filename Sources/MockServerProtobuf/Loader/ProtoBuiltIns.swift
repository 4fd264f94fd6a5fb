/// The `.proto` files that are built in, as text: the well-known types (`google/protobuf/*.proto`),
/// `google/rpc/`'s status, codes and error details, and the schemas of the services the server itself
/// answers (reflection v1 and v1alpha, health). Each holds the schema's facts (packages, messages,
/// fields, enums, services and the file options a descriptor carries), written out from the
/// descriptors that the `protobuf`, `googleapis-common-protos`, `grpcio-reflection` and
/// `grpcio-health-checking` Python packages carry, without the originals' comments
/// (Scripts/builtin-protos.py writes them). A file of the same name on a proto path is read instead.
package enum ProtoBuiltIns {
    /// Each built-in file's text, by its name.
    package static let files: [String: String] = [
        "google/protobuf/any.proto": any,
        "google/protobuf/api.proto": api,
        "google/protobuf/duration.proto": duration,
        "google/protobuf/empty.proto": empty,
        "google/protobuf/field_mask.proto": fieldMask,
        "google/protobuf/source_context.proto": sourceContext,
        "google/protobuf/struct.proto": structProto,
        "google/protobuf/timestamp.proto": timestamp,
        "google/protobuf/type.proto": typeProto,
        "google/protobuf/wrappers.proto": wrappers,
        "google/rpc/status.proto": rpcStatus,
        "google/rpc/code.proto": rpcCode,
        "google/rpc/error_details.proto": rpcErrorDetails,
        "grpc/reflection/v1alpha/reflection.proto": reflectionV1Alpha,
        "grpc/health/v1/health.proto": healthV1,
        "grpc/reflection/v1/reflection.proto": reflectionV1,
        "google/protobuf/descriptor.proto": descriptor,
    ]

    /// `google/protobuf/any.proto`.
    static let any = #"""
    syntax = "proto3";

    package google.protobuf;

    option java_package = "com.google.protobuf";
    option java_outer_classname = "AnyProto";
    option java_multiple_files = true;
    option go_package = "google.golang.org/protobuf/types/known/anypb";
    option objc_class_prefix = "GPB";
    option csharp_namespace = "Google.Protobuf.WellKnownTypes";

    message Any {
      string type_url = 1;
      bytes value = 2;
    }
    """#

    /// `google/protobuf/api.proto`.
    static let api = #"""
    syntax = "proto3";

    package google.protobuf;

    import "google/protobuf/source_context.proto";
    import "google/protobuf/type.proto";

    option java_package = "com.google.protobuf";
    option java_outer_classname = "ApiProto";
    option java_multiple_files = true;
    option go_package = "google.golang.org/protobuf/types/known/apipb";
    option objc_class_prefix = "GPB";
    option csharp_namespace = "Google.Protobuf.WellKnownTypes";

    message Api {
      string name = 1;
      repeated Method methods = 2;
      repeated Option options = 3;
      string version = 4;
      SourceContext source_context = 5;
      repeated Mixin mixins = 6;
      Syntax syntax = 7;
      string edition = 8;
    }

    message Method {
      string name = 1;
      string request_type_url = 2;
      bool request_streaming = 3;
      string response_type_url = 4;
      bool response_streaming = 5;
      repeated Option options = 6;
      Syntax syntax = 7;
      string edition = 8;
    }

    message Mixin {
      string name = 1;
      string root = 2;
    }
    """#

    /// `google/protobuf/duration.proto`.
    static let duration = #"""
    syntax = "proto3";

    package google.protobuf;

    option java_package = "com.google.protobuf";
    option java_outer_classname = "DurationProto";
    option java_multiple_files = true;
    option go_package = "google.golang.org/protobuf/types/known/durationpb";
    option cc_enable_arenas = true;
    option objc_class_prefix = "GPB";
    option csharp_namespace = "Google.Protobuf.WellKnownTypes";

    message Duration {
      int64 seconds = 1;
      int32 nanos = 2;
    }
    """#

    /// `google/protobuf/empty.proto`.
    static let empty = #"""
    syntax = "proto3";

    package google.protobuf;

    option java_package = "com.google.protobuf";
    option java_outer_classname = "EmptyProto";
    option java_multiple_files = true;
    option go_package = "google.golang.org/protobuf/types/known/emptypb";
    option cc_enable_arenas = true;
    option objc_class_prefix = "GPB";
    option csharp_namespace = "Google.Protobuf.WellKnownTypes";

    message Empty {
    }
    """#

    /// `google/protobuf/field_mask.proto`.
    static let fieldMask = #"""
    syntax = "proto3";

    package google.protobuf;

    option java_package = "com.google.protobuf";
    option java_outer_classname = "FieldMaskProto";
    option java_multiple_files = true;
    option go_package = "google.golang.org/protobuf/types/known/fieldmaskpb";
    option cc_enable_arenas = true;
    option objc_class_prefix = "GPB";
    option csharp_namespace = "Google.Protobuf.WellKnownTypes";

    message FieldMask {
      repeated string paths = 1;
    }
    """#

    /// `google/protobuf/source_context.proto`.
    static let sourceContext = #"""
    syntax = "proto3";

    package google.protobuf;

    option java_package = "com.google.protobuf";
    option java_outer_classname = "SourceContextProto";
    option java_multiple_files = true;
    option go_package = "google.golang.org/protobuf/types/known/sourcecontextpb";
    option objc_class_prefix = "GPB";
    option csharp_namespace = "Google.Protobuf.WellKnownTypes";

    message SourceContext {
      string file_name = 1;
    }
    """#

    /// `google/protobuf/struct.proto`.
    static let structProto = #"""
    syntax = "proto3";

    package google.protobuf;

    option java_package = "com.google.protobuf";
    option java_outer_classname = "StructProto";
    option java_multiple_files = true;
    option go_package = "google.golang.org/protobuf/types/known/structpb";
    option cc_enable_arenas = true;
    option objc_class_prefix = "GPB";
    option csharp_namespace = "Google.Protobuf.WellKnownTypes";

    message Struct {
      map<string, Value> fields = 1;
    }

    message Value {
      oneof kind {
        NullValue null_value = 1;
        double number_value = 2;
        string string_value = 3;
        bool bool_value = 4;
        Struct struct_value = 5;
        ListValue list_value = 6;
      }
    }

    message ListValue {
      repeated Value values = 1;
    }

    enum NullValue {
      NULL_VALUE = 0;
    }
    """#

    /// `google/protobuf/timestamp.proto`.
    static let timestamp = #"""
    syntax = "proto3";

    package google.protobuf;

    option java_package = "com.google.protobuf";
    option java_outer_classname = "TimestampProto";
    option java_multiple_files = true;
    option go_package = "google.golang.org/protobuf/types/known/timestamppb";
    option cc_enable_arenas = true;
    option objc_class_prefix = "GPB";
    option csharp_namespace = "Google.Protobuf.WellKnownTypes";

    message Timestamp {
      int64 seconds = 1;
      int32 nanos = 2;
    }
    """#

    /// `google/protobuf/type.proto`.
    static let typeProto = #"""
    syntax = "proto3";

    package google.protobuf;

    import "google/protobuf/any.proto";
    import "google/protobuf/source_context.proto";

    option java_package = "com.google.protobuf";
    option java_outer_classname = "TypeProto";
    option java_multiple_files = true;
    option go_package = "google.golang.org/protobuf/types/known/typepb";
    option cc_enable_arenas = true;
    option objc_class_prefix = "GPB";
    option csharp_namespace = "Google.Protobuf.WellKnownTypes";

    message Type {
      string name = 1;
      repeated Field fields = 2;
      repeated string oneofs = 3;
      repeated Option options = 4;
      SourceContext source_context = 5;
      Syntax syntax = 6;
      string edition = 7;
    }

    message Field {
      enum Kind {
        TYPE_UNKNOWN = 0;
        TYPE_DOUBLE = 1;
        TYPE_FLOAT = 2;
        TYPE_INT64 = 3;
        TYPE_UINT64 = 4;
        TYPE_INT32 = 5;
        TYPE_FIXED64 = 6;
        TYPE_FIXED32 = 7;
        TYPE_BOOL = 8;
        TYPE_STRING = 9;
        TYPE_GROUP = 10;
        TYPE_MESSAGE = 11;
        TYPE_BYTES = 12;
        TYPE_UINT32 = 13;
        TYPE_ENUM = 14;
        TYPE_SFIXED32 = 15;
        TYPE_SFIXED64 = 16;
        TYPE_SINT32 = 17;
        TYPE_SINT64 = 18;
      }
      enum Cardinality {
        CARDINALITY_UNKNOWN = 0;
        CARDINALITY_OPTIONAL = 1;
        CARDINALITY_REQUIRED = 2;
        CARDINALITY_REPEATED = 3;
      }
      Field.Kind kind = 1;
      Field.Cardinality cardinality = 2;
      int32 number = 3;
      string name = 4;
      string type_url = 6;
      int32 oneof_index = 7;
      bool packed = 8;
      repeated Option options = 9;
      string json_name = 10;
      string default_value = 11;
    }

    message Enum {
      string name = 1;
      repeated EnumValue enumvalue = 2;
      repeated Option options = 3;
      SourceContext source_context = 4;
      Syntax syntax = 5;
      string edition = 6;
    }

    message EnumValue {
      string name = 1;
      int32 number = 2;
      repeated Option options = 3;
    }

    message Option {
      string name = 1;
      Any value = 2;
    }

    enum Syntax {
      SYNTAX_PROTO2 = 0;
      SYNTAX_PROTO3 = 1;
      SYNTAX_EDITIONS = 2;
    }
    """#

    /// `google/protobuf/wrappers.proto`.
    static let wrappers = #"""
    syntax = "proto3";

    package google.protobuf;

    option java_package = "com.google.protobuf";
    option java_outer_classname = "WrappersProto";
    option java_multiple_files = true;
    option go_package = "google.golang.org/protobuf/types/known/wrapperspb";
    option cc_enable_arenas = true;
    option objc_class_prefix = "GPB";
    option csharp_namespace = "Google.Protobuf.WellKnownTypes";

    message DoubleValue {
      double value = 1;
    }

    message FloatValue {
      float value = 1;
    }

    message Int64Value {
      int64 value = 1;
    }

    message UInt64Value {
      uint64 value = 1;
    }

    message Int32Value {
      int32 value = 1;
    }

    message UInt32Value {
      uint32 value = 1;
    }

    message BoolValue {
      bool value = 1;
    }

    message StringValue {
      string value = 1;
    }

    message BytesValue {
      bytes value = 1;
    }
    """#

    /// `google/rpc/status.proto`.
    static let rpcStatus = #"""
    syntax = "proto3";

    package google.rpc;

    import "google/protobuf/any.proto";

    option java_package = "com.google.rpc";
    option java_outer_classname = "StatusProto";
    option java_multiple_files = true;
    option go_package = "google.golang.org/genproto/googleapis/rpc/status;status";
    option objc_class_prefix = "RPC";

    message Status {
      int32 code = 1;
      string message = 2;
      repeated .google.protobuf.Any details = 3;
    }
    """#

    /// `google/rpc/code.proto`.
    static let rpcCode = #"""
    syntax = "proto3";

    package google.rpc;

    option java_package = "com.google.rpc";
    option java_outer_classname = "CodeProto";
    option java_multiple_files = true;
    option go_package = "google.golang.org/genproto/googleapis/rpc/code;code";
    option objc_class_prefix = "RPC";

    enum Code {
      OK = 0;
      CANCELLED = 1;
      UNKNOWN = 2;
      INVALID_ARGUMENT = 3;
      DEADLINE_EXCEEDED = 4;
      NOT_FOUND = 5;
      ALREADY_EXISTS = 6;
      PERMISSION_DENIED = 7;
      UNAUTHENTICATED = 16;
      RESOURCE_EXHAUSTED = 8;
      FAILED_PRECONDITION = 9;
      ABORTED = 10;
      OUT_OF_RANGE = 11;
      UNIMPLEMENTED = 12;
      INTERNAL = 13;
      UNAVAILABLE = 14;
      DATA_LOSS = 15;
    }
    """#

    /// `google/rpc/error_details.proto`.
    static let rpcErrorDetails = #"""
    syntax = "proto3";

    package google.rpc;

    import "google/protobuf/duration.proto";

    option java_package = "com.google.rpc";
    option java_outer_classname = "ErrorDetailsProto";
    option java_multiple_files = true;
    option go_package = "google.golang.org/genproto/googleapis/rpc/errdetails;errdetails";
    option objc_class_prefix = "RPC";

    message ErrorInfo {
      string reason = 1;
      string domain = 2;
      map<string, string> metadata = 3;
    }

    message RetryInfo {
      .google.protobuf.Duration retry_delay = 1;
    }

    message DebugInfo {
      repeated string stack_entries = 1;
      string detail = 2;
    }

    message QuotaFailure {
      repeated QuotaFailure.Violation violations = 1;
      message Violation {
        string subject = 1;
        string description = 2;
        string api_service = 3;
        string quota_metric = 4;
        string quota_id = 5;
        map<string, string> quota_dimensions = 6;
        int64 quota_value = 7;
        optional int64 future_quota_value = 8;
      }
    }

    message PreconditionFailure {
      repeated PreconditionFailure.Violation violations = 1;
      message Violation {
        string type = 1;
        string subject = 2;
        string description = 3;
      }
    }

    message BadRequest {
      repeated BadRequest.FieldViolation field_violations = 1;
      message FieldViolation {
        string field = 1;
        string description = 2;
        string reason = 3;
        LocalizedMessage localized_message = 4;
      }
    }

    message RequestInfo {
      string request_id = 1;
      string serving_data = 2;
    }

    message ResourceInfo {
      string resource_type = 1;
      string resource_name = 2;
      string owner = 3;
      string description = 4;
    }

    message Help {
      repeated Help.Link links = 1;
      message Link {
        string description = 1;
        string url = 2;
      }
    }

    message LocalizedMessage {
      string locale = 1;
      string message = 2;
    }
    """#

    /// `grpc/reflection/v1alpha/reflection.proto`.
    static let reflectionV1Alpha = #"""
    syntax = "proto3";

    package grpc.reflection.v1alpha;

    option java_package = "io.grpc.reflection.v1alpha";
    option java_outer_classname = "ServerReflectionProto";
    option java_multiple_files = true;
    option go_package = "google.golang.org/grpc/reflection/grpc_reflection_v1alpha";
    option deprecated = true;

    message ServerReflectionRequest {
      string host = 1;
      oneof message_request {
        string file_by_filename = 3;
        string file_containing_symbol = 4;
        ExtensionRequest file_containing_extension = 5;
        string all_extension_numbers_of_type = 6;
        string list_services = 7;
      }
    }

    message ExtensionRequest {
      string containing_type = 1;
      int32 extension_number = 2;
    }

    message ServerReflectionResponse {
      string valid_host = 1;
      ServerReflectionRequest original_request = 2;
      oneof message_response {
        FileDescriptorResponse file_descriptor_response = 4;
        ExtensionNumberResponse all_extension_numbers_response = 5;
        ListServiceResponse list_services_response = 6;
        ErrorResponse error_response = 7;
      }
    }

    message FileDescriptorResponse {
      repeated bytes file_descriptor_proto = 1;
    }

    message ExtensionNumberResponse {
      string base_type_name = 1;
      repeated int32 extension_number = 2;
    }

    message ListServiceResponse {
      repeated ServiceResponse service = 1;
    }

    message ServiceResponse {
      string name = 1;
    }

    message ErrorResponse {
      int32 error_code = 1;
      string error_message = 2;
    }

    service ServerReflection {
      rpc ServerReflectionInfo(stream ServerReflectionRequest) returns (stream ServerReflectionResponse);
    }
    """#

    /// `grpc/health/v1/health.proto`.
    static let healthV1 = #"""
    syntax = "proto3";

    package grpc.health.v1;

    option java_package = "io.grpc.health.v1";
    option java_outer_classname = "HealthProto";
    option java_multiple_files = true;
    option go_package = "google.golang.org/grpc/health/grpc_health_v1";
    option objc_class_prefix = "GrpcHealthV1";
    option csharp_namespace = "Grpc.Health.V1";

    message HealthCheckRequest {
      string service = 1;
    }

    message HealthCheckResponse {
      enum ServingStatus {
        UNKNOWN = 0;
        SERVING = 1;
        NOT_SERVING = 2;
        SERVICE_UNKNOWN = 3;
      }
      HealthCheckResponse.ServingStatus status = 1;
    }

    message HealthListRequest {
    }

    message HealthListResponse {
      map<string, HealthCheckResponse> statuses = 1;
    }

    service Health {
      rpc Check(HealthCheckRequest) returns (HealthCheckResponse);
      rpc List(HealthListRequest) returns (HealthListResponse);
      rpc Watch(HealthCheckRequest) returns (stream HealthCheckResponse);
    }
    """#

    /// `grpc/reflection/v1/reflection.proto`.
    static let reflectionV1 = #"""
    syntax = "proto3";

    package grpc.reflection.v1;

    option java_package = "io.grpc.reflection.v1";
    option java_outer_classname = "ServerReflectionProto";
    option java_multiple_files = true;
    option go_package = "google.golang.org/grpc/reflection/grpc_reflection_v1";

    message ServerReflectionRequest {
      string host = 1;
      oneof message_request {
        string file_by_filename = 3;
        string file_containing_symbol = 4;
        ExtensionRequest file_containing_extension = 5;
        string all_extension_numbers_of_type = 6;
        string list_services = 7;
      }
    }

    message ExtensionRequest {
      string containing_type = 1;
      int32 extension_number = 2;
    }

    message ServerReflectionResponse {
      string valid_host = 1;
      ServerReflectionRequest original_request = 2;
      oneof message_response {
        FileDescriptorResponse file_descriptor_response = 4;
        ExtensionNumberResponse all_extension_numbers_response = 5;
        ListServiceResponse list_services_response = 6;
        ErrorResponse error_response = 7;
      }
    }

    message FileDescriptorResponse {
      repeated bytes file_descriptor_proto = 1;
    }

    message ExtensionNumberResponse {
      string base_type_name = 1;
      repeated int32 extension_number = 2;
    }

    message ListServiceResponse {
      repeated ServiceResponse service = 1;
    }

    message ServiceResponse {
      string name = 1;
    }

    message ErrorResponse {
      int32 error_code = 1;
      string error_message = 2;
    }

    service ServerReflection {
      rpc ServerReflectionInfo(stream ServerReflectionRequest) returns (stream ServerReflectionResponse);
    }
    """#
}
