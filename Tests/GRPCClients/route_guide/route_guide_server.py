"""The route_guide example's server, written for MockServer's acceptance tests: the reference the
mock's answers are compared with. It serves the features in route_guide_db.json on 127.0.0.1 at a
port the system picks, prints that port as its first line, and serves until it is terminated.
Server reflection (grpcio-reflection) and health (grpcio-health-checking) are on, as they are on the
mock whenever a schema is loaded."""

import json
import math
import os
import sys
import time
from concurrent import futures

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

import route_guide_stubs

pb2, pb2_grpc = route_guide_stubs.load()


def read_database(path):
    """The features in the JSON file at `path`, in its order."""
    with open(path) as file:
        return [pb2.Feature(name=entry["name"],
                            location=pb2.Point(latitude=entry["location"]["latitude"],
                                               longitude=entry["location"]["longitude"]))
                for entry in json.load(file)]


def feature_at(features, point):
    """The feature at exactly `point`, or None."""
    return next((feature for feature in features if feature.location == point), None)


def distance(start, end):
    """Metres between two points on a sphere of the Earth's mean radius (the haversine formula), as
    the example computes them from coordinates in degrees times 10^7."""
    factor = 10000000.0
    lat1, lat2 = math.radians(start.latitude / factor), math.radians(end.latitude / factor)
    lon1, lon2 = math.radians(start.longitude / factor), math.radians(end.longitude / factor)
    a = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 6371000 * 2 * math.atan2(math.sqrt(a), math.sqrt(1 - a))


class RouteGuide(pb2_grpc.RouteGuideServicer):
    """The four methods, each the example's behaviour."""

    def __init__(self, features):
        self.features = features

    def GetFeature(self, request, context):
        """The feature at the point, or an unnamed one there."""
        return feature_at(self.features, request) or pb2.Feature(name="", location=request)

    def ListFeatures(self, request, context):
        """Every feature inside the rectangle (edges included), in the database's order."""
        low_lat, high_lat = sorted((request.lo.latitude, request.hi.latitude))
        low_lon, high_lon = sorted((request.lo.longitude, request.hi.longitude))
        for feature in self.features:
            if low_lat <= feature.location.latitude <= high_lat and low_lon <= feature.location.longitude <= high_lon:
                yield feature

    def RecordRoute(self, request_iterator, context):
        """The points counted, those that are features counted, the distance between consecutive
        points summed, and the whole seconds the call took."""
        points = features = 0
        metres = 0.0
        previous = None
        started = time.time()
        for point in request_iterator:
            points += 1
            if feature_at(self.features, point):
                features += 1
            if previous is not None:
                metres += distance(previous, point)
            previous = point
        return pb2.RouteSummary(point_count=points, feature_count=features, distance=int(metres),
                                elapsed_time=int(time.time() - started))

    def RouteChat(self, request_iterator, context):
        """Each note, as it arrives, answered with every earlier note left at the same point."""
        earlier = []
        for note in request_iterator:
            for old in earlier:
                if old.location == note.location:
                    yield old
            earlier.append(note)


def main():
    database = sys.argv[1] if len(sys.argv) > 1 else os.path.join(route_guide_stubs.HERE, "route_guide_db.json")
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8))
    pb2_grpc.add_RouteGuideServicer_to_server(RouteGuide(read_database(database)), server)
    health_servicer = health.HealthServicer()
    health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
    health_servicer.set("routeguide.RouteGuide", health_pb2.HealthCheckResponse.SERVING)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    names = (pb2.DESCRIPTOR.services_by_name["RouteGuide"].full_name, health.SERVICE_NAME, reflection.SERVICE_NAME)
    reflection.enable_server_reflection(names, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    print(port, flush=True)
    server.wait_for_termination()


if __name__ == "__main__":
    main()
