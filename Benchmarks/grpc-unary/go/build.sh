#!/usr/bin/env bash
# Builds the grpc-go peer into OUT/greeter-go the usual way, offline: protoc with Debian's protoc-gen-go
# and protoc-gen-go-grpc generates the code into OUT's GOPATH (never committed), and `go build` in
# GOPATH mode compiles it against Debian's grpc-go and goprotobuf in /usr/share/gocode.
#   Benchmarks/grpc-unary/go/build.sh OUT
set -euo pipefail
out="${1:?usage: build.sh OUT}"
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$out/src/mockserver.bench/greeter"
protoc -I "$here/.." --go_out="$out/src" --go-grpc_out="$out/src" "$here/../greeter.proto"
cp "$here/main.go" "$out/src/mockserver.bench/greeter/main.go"
cd "$out"
GO111MODULE=off GOPATH="$out:/usr/share/gocode" GOFLAGS= go build -o "$out/greeter-go" mockserver.bench/greeter
