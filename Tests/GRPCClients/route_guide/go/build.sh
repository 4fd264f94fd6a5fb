#!/usr/bin/env bash
# Builds the Go route_guide client into OUT/route_guide_client, the usual way: protoc with Debian's
# protoc-gen-go and protoc-gen-go-grpc generates the code into OUT's GOPATH, and `go build` in GOPATH
# mode compiles it against Debian's grpc-go and goprotobuf (/usr/share/gocode), offline.
set -euo pipefail
out="${1:?usage: build.sh OUT}"
here="$(cd "$(dirname "$0")" && pwd)"
mkdir -p "$out/src/mockserver.test/routeguideclient"
protoc -I "$here/.." --go_out="$out/src" --go-grpc_out="$out/src" "$here/../route_guide.proto"
cp "$here/main.go" "$out/src/mockserver.test/routeguideclient/main.go"
cd "$out"
GO111MODULE=off GOPATH="$out:/usr/share/gocode" GOFLAGS= go build -o "$out/route_guide_client" mockserver.test/routeguideclient
