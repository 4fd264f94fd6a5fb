// The grpc-go peer of Benchmarks/grpc-unary.sh: bench.Greeter/Hello answered with the message that
// endpoints.json gives MockServer as JSON, built from a value made once (as MockServer converts its
// JSON once at load). It prints "listening on PORT" and serves until killed.
package main

import (
	"context"
	"fmt"
	"net"
	"os"

	pb "mockserver.bench/benchpb"
	"google.golang.org/grpc"
)

// greeter answers every Hello with the same reply.
type greeter struct {
	pb.UnimplementedGreeterServer
	reply *pb.HelloReply
}

// Hello returns the constant reply whatever the request holds.
func (g *greeter) Hello(context.Context, *pb.HelloRequest) (*pb.HelloReply, error) {
	return g.reply, nil
}

func main() {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "grpc-go server:", err)
		os.Exit(1)
	}
	server := grpc.NewServer()
	pb.RegisterGreeterServer(server, &greeter{reply: &pb.HelloReply{Message: "hello, world", Count: 42, Ok: true}})
	fmt.Printf("listening on %d\n", listener.Addr().(*net.TCPAddr).Port)
	if err := server.Serve(listener); err != nil {
		fmt.Fprintln(os.Stderr, "grpc-go server:", err)
		os.Exit(1)
	}
}
