"""Checks, before Benchmarks/grpc-unary.sh measures, that each server answers bench.Greeter/Hello with
OK and the same message, through grpcio's client: prints the reply's bytes in hex and exits 1 on any
other status or a different message.

    python3 check.py GENERATED_DIR CALLS PORT...
"""
import sys

sys.path.insert(0, sys.argv[1])
import grpc
import greeter_pb2
import greeter_pb2_grpc

EXPECTED = greeter_pb2.HelloReply(message="hello, world", count=42, ok=True)
calls = int(sys.argv[2])
for port in sys.argv[3:]:
    with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = greeter_pb2_grpc.GreeterStub(channel)
        for _ in range(calls):
            reply, call = stub.Hello.with_call(greeter_pb2.HelloRequest(name="bench"), timeout=10)
            if call.code() != grpc.StatusCode.OK or reply != EXPECTED:
                sys.exit(f"port {port}: {call.code()} {reply}")
        print(f"port {port}: {calls} calls OK, reply {reply.SerializeToString().hex()}")
