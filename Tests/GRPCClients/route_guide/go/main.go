// The route_guide client in Go (grpc-go with protoc-gen-go and protoc-gen-go-grpc code, from
// Debian's packages): one fixed scenario across the four call kinds against HOST:PORT, printed as
// the canonical transcript the Python and Swift clients print too (../README.md). Exits 1 after a
// line saying what failed.
//
// RouteChat waits for the answers to each note before it sends the next, so a server that answers
// only once the client has half-closed fails at the call's deadline, with a line that says so.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "mockserver.test/routeguide"
)

// Each call's deadline: 10 s, or ROUTE_GUIDE_DEADLINE's seconds.
var deadline = 10 * time.Second

func init() {
	if text := os.Getenv("ROUTE_GUIDE_DEADLINE"); text != "" {
		seconds, err := strconv.ParseFloat(text, 64)
		if err != nil || seconds <= 0 {
			fail("ROUTE_GUIDE_DEADLINE takes seconds, not %q", text)
		}
		deadline = time.Duration(seconds * float64(time.Second))
	}
}

func fail(format string, arguments ...interface{}) {
	fmt.Fprintf(os.Stderr, format+"\n", arguments...)
	os.Exit(1)
}

func failRPC(err error) {
	fail("FAILED: %s: %s", status.Code(err), status.Convert(err).Message())
}

func point(latitude, longitude int32) *pb.Point {
	return &pb.Point{Latitude: latitude, Longitude: longitude}
}

func show(p *pb.Point) string {
	return fmt.Sprintf("(%d, %d)", p.GetLatitude(), p.GetLongitude())
}

func showFeature(f *pb.Feature) string {
	return fmt.Sprintf("\"%s\" at %s", f.GetName(), show(f.GetLocation()))
}

func call() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), deadline)
}

func main() {
	if len(os.Args) != 2 {
		fail("usage: route_guide_client HOST:PORT")
	}
	connection, err := grpc.Dial(os.Args[1], grpc.WithInsecure())
	if err != nil {
		fail("FAILED: %v", err)
	}
	defer connection.Close()
	guide := pb.NewRouteGuideClient(connection)

	for _, p := range []*pb.Point{point(387245574, -92250054), point(387000000, -91000000)} {
		ctx, cancel := call()
		feature, err := guide.GetFeature(ctx, p)
		cancel()
		if err != nil {
			failRPC(err)
		}
		fmt.Printf("GetFeature %s: %s\n", show(p), showFeature(feature))
	}

	rectangle := &pb.Rectangle{Lo: point(387200000, -91800000), Hi: point(388000000, -91200000)}
	fmt.Printf("ListFeatures %s-%s:\n", show(rectangle.Lo), show(rectangle.Hi))
	ctx, cancel := call()
	features, err := guide.ListFeatures(ctx, rectangle)
	if err != nil {
		failRPC(err)
	}
	count := 0
	for {
		feature, err := features.Recv()
		if err == io.EOF {
			break
		} else if err != nil {
			failRPC(err)
		}
		fmt.Printf("  %s\n", showFeature(feature))
		count++
	}
	cancel()
	fmt.Printf("ListFeatures: %d features\n", count)

	route := []*pb.Point{point(386500000, -92500000), point(386846231, -92125351), point(386900000, -92000000),
		point(387245574, -92250054), point(387991148, -92000108)}
	ctx, cancel = call()
	recorder, err := guide.RecordRoute(ctx)
	if err != nil {
		failRPC(err)
	}
	for _, p := range route {
		if err := recorder.Send(p); err != nil && err != io.EOF {
			failRPC(err)
		}
	}
	summary, err := recorder.CloseAndRecv()
	cancel()
	if err != nil {
		failRPC(err)
	}
	elapsed := "under 10 s"
	if summary.GetElapsedTime() < 0 || summary.GetElapsedTime() >= 10 {
		elapsed = fmt.Sprintf("= %d s", summary.GetElapsedTime())
	}
	fmt.Printf("RecordRoute %d points: point_count=%d feature_count=%d distance=%d elapsed_time %s\n",
		len(route), summary.GetPointCount(), summary.GetFeatureCount(), summary.GetDistance(), elapsed)

	chat(guide)
	fmt.Println("done")
}

// chat runs RouteChat: each note with the number of answers the example's server sends to it as it
// arrives; the next note goes only once those have come.
func chat(guide pb.RouteGuideClient) {
	a, b := point(386900000, -92000000), point(387100000, -91100000)
	notes := []struct {
		note     *pb.RouteNote
		expected int
	}{
		{&pb.RouteNote{Location: a, Message: "first at A"}, 0},
		{&pb.RouteNote{Location: a, Message: "second at A"}, 1},
		{&pb.RouteNote{Location: b, Message: "first at B"}, 0},
		{&pb.RouteNote{Location: a, Message: "third at A"}, 2},
		{&pb.RouteNote{Location: b, Message: "second at B"}, 1},
	}
	ctx, cancel := call()
	defer cancel()
	stream, err := guide.RouteChat(ctx)
	if err != nil {
		failRPC(err)
	}
	received := 0
	for number, entry := range notes {
		fmt.Printf("RouteChat sent \"%s\" at %s\n", entry.note.GetMessage(), show(entry.note.GetLocation()))
		if err := stream.Send(entry.note); err != nil && err != io.EOF {
			failRPC(err)
		}
		for i := 0; i < entry.expected; i++ {
			answer, err := stream.Recv()
			if status.Code(err) == codes.DeadlineExceeded {
				fail("FAILED: RouteChat: no answer to note %d within %v: the server does not answer each note as it arrives (it may wait for the client's half-close)", number+1, deadline)
			} else if err == io.EOF {
				fail("FAILED: RouteChat ended with note %d unanswered", number+1)
			} else if err != nil {
				failRPC(err)
			}
			fmt.Printf("RouteChat got \"%s\" at %s\n", answer.GetMessage(), show(answer.GetLocation()))
			received++
		}
	}
	if err := stream.CloseSend(); err != nil {
		failRPC(err)
	}
	for {
		answer, err := stream.Recv()
		if err == io.EOF {
			break
		} else if err != nil {
			failRPC(err)
		}
		fmt.Printf("RouteChat got \"%s\" at %s\n", answer.GetMessage(), show(answer.GetLocation()))
		received++
	}
	fmt.Printf("RouteChat closed: %d notes\n", received)
}
