"""The grpcio peer of Benchmarks/grpc-unary.sh: bench.Greeter/Hello answered with the message that
endpoints.json gives MockServer as JSON, made once. grpcio's synchronous server with a thread pool of
10 workers, as the gRPC project's Python examples start one. Prints "listening on PORT" and serves
until killed.

    python3 server.py GENERATED_DIR   (where grpc_tools.protoc wrote greeter_pb2*.py)
"""
import sys
from concurrent import futures

sys.path.insert(0, sys.argv[1])
import grpc
import greeter_pb2
import greeter_pb2_grpc

REPLY = greeter_pb2.HelloReply(message="hello, world", count=42, ok=True)


class Greeter(greeter_pb2_grpc.GreeterServicer):
    """Answers every Hello with the same reply."""

    def Hello(self, request, context):
        return REPLY


server = grpc.server(futures.ThreadPoolExecutor(max_workers=10))
greeter_pb2_grpc.add_GreeterServicer_to_server(Greeter(), server)
port = server.add_insecure_port("127.0.0.1:0")
server.start()
print(f"listening on {port}", flush=True)
server.wait_for_termination()
