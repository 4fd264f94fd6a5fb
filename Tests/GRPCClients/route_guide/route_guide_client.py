"""The route_guide client in Python (grpcio, stubs from grpcio-tools): one fixed scenario across the
four call kinds against HOST:PORT, printed as the canonical transcript that the Go and Swift clients
print too (README.md beside this file). Exits 1 after a line saying what failed.

RouteChat waits for the answers to each note before it sends the next, so a server that answers only
once the client has half-closed fails at the call's deadline, with a line that says so."""

import os
import queue
import sys

import grpc

import route_guide_stubs

pb2, pb2_grpc = route_guide_stubs.load()

# Each call's deadline: 10 s, or ROUTE_GUIDE_DEADLINE's seconds.
DEADLINE = float(os.environ.get("ROUTE_GUIDE_DEADLINE") or 10)


def point(latitude, longitude):
    return pb2.Point(latitude=latitude, longitude=longitude)


def show(p):
    return "(%d, %d)" % (p.latitude, p.longitude)


def show_feature(feature):
    return '"%s" at %s' % (feature.name, show(feature.location))


def run(stub, out):
    for p in (point(387245574, -92250054), point(387000000, -91000000)):
        out("GetFeature %s: %s" % (show(p), show_feature(stub.GetFeature(p, timeout=DEADLINE))))

    rectangle = pb2.Rectangle(lo=point(387200000, -91800000), hi=point(388000000, -91200000))
    out("ListFeatures %s-%s:" % (show(rectangle.lo), show(rectangle.hi)))
    count = 0
    for feature in stub.ListFeatures(rectangle, timeout=DEADLINE):
        out("  " + show_feature(feature))
        count += 1
    out("ListFeatures: %d features" % count)

    route = [point(386500000, -92500000), point(386846231, -92125351), point(386900000, -92000000),
             point(387245574, -92250054), point(387991148, -92000108)]
    summary = stub.RecordRoute(iter(route), timeout=DEADLINE)
    out("RecordRoute %d points: point_count=%d feature_count=%d distance=%d elapsed_time %s" % (
        len(route), summary.point_count, summary.feature_count, summary.distance,
        "under 10 s" if 0 <= summary.elapsed_time < 10 else "= %d s" % summary.elapsed_time))

    a, b = point(386900000, -92000000), point(387100000, -91100000)
    # Each note with the number of answers the example's server sends to it as it arrives.
    notes = [(pb2.RouteNote(location=a, message="first at A"), 0), (pb2.RouteNote(location=a, message="second at A"), 1),
             (pb2.RouteNote(location=b, message="first at B"), 0), (pb2.RouteNote(location=a, message="third at A"), 2),
             (pb2.RouteNote(location=b, message="second at B"), 1)]
    outgoing = queue.Queue()
    answers = stub.RouteChat(iter(outgoing.get, None), timeout=DEADLINE)
    received = 0
    for number, (note, expected) in enumerate(notes, start=1):
        outgoing.put(note)
        out('RouteChat sent "%s" at %s' % (note.message, show(note.location)))
        for _ in range(expected):
            try:
                answer = next(answers)
            except grpc.RpcError as error:
                if error.code() == grpc.StatusCode.DEADLINE_EXCEEDED:
                    raise SystemExit("FAILED: RouteChat: no answer to note %d within %g s: the server does not answer each "
                                     "note as it arrives (it may wait for the client's half-close)" % (number, DEADLINE))
                raise
            except StopIteration:
                raise SystemExit("FAILED: RouteChat ended with note %d unanswered" % number)
            out('RouteChat got "%s" at %s' % (answer.message, show(answer.location)))
            received += 1
    outgoing.put(None)
    for answer in answers:
        out('RouteChat got "%s" at %s' % (answer.message, show(answer.location)))
        received += 1
    out("RouteChat closed: %d notes" % received)


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: route_guide_client.py HOST:PORT")
    with grpc.insecure_channel(sys.argv[1]) as channel:
        stub = pb2_grpc.RouteGuideStub(channel)
        try:
            run(stub, lambda line: print(line, flush=True))
        except grpc.RpcError as error:
            raise SystemExit("FAILED: %s: %s" % (error.code().name, error.details()))
    print("done")


if __name__ == "__main__":
    main()
