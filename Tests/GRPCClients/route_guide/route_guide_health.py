"""The checks grpc_health_probe makes, through grpcio-health-checking's messages and stub: Check for
the server as a whole (""), for routeguide.RouteGuide, and for a service no server has, each printed
as its serving status or the call's gRPC status code (route_guide_health.txt). Takes HOST:PORT."""

import sys

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: route_guide_health.py HOST:PORT")
    with grpc.insecure_channel(sys.argv[1]) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        for service in ("", "routeguide.RouteGuide", "routeguide.NoSuchService"):
            try:
                answer = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=10)
                print('Check "%s": %s' % (service, health_pb2.HealthCheckResponse.ServingStatus.Name(answer.status)))
            except grpc.RpcError as error:
                print('Check "%s": status %s' % (service, error.code().name))


if __name__ == "__main__":
    main()
