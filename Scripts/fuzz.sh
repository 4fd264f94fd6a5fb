#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ with AddressSanitizer and runs each of them.
#
#   Scripts/fuzz.sh [RUNS] [TARGET...]
#
# RUNS is the number of inputs per target: 0 (the default) runs until a failure or Ctrl-C, and CI
# passes a fixed number. With FUZZ_SKIP_BUILD set, the targets built by an earlier call are run
# without a build (CI runs two calls side by side after a first that builds). TARGET is one of (all by default):
#   FuzzFraming       the line, HTTP request (head, Content-Length and chunked bodies) and raw framers
#   FuzzWebSocket     the WebSocket frame parser and message assembler
#   FuzzWebDAVXML     the WebDAV XML reader
#   FuzzFTPArguments  FTP's PORT/EPRT addresses and «ftp»'s file commands (REST, RETR, STOR, paths)
#   FuzzAdminJSON     the JSON bodies of the admin API (JSON reader, conditions, endpoints, /set)
#   FuzzHPACK         the HPACK decoder (and its encoder, on what it decoded)
#   FuzzHTTP2Frames   the HTTP/2 frame reader (and writer, on what it read)
#   FuzzResponseFile  the response-file loader
#   FuzzMail          SMTP's and POP3's sessions (commands, DATA, BDAT, SASL) in reads of every size, and the MIME parser
#   FuzzIMAP          the IMAP command reader (literals included) whole and split, sequence sets, mailbox names, LIST patterns
#   FuzzProtoWire     protobuf messages decoded into the proto3 JSON mapping by a fixed schema, encoded again, matched
#   FuzzProtoReader   the .proto reader (two files, one importing the other, and the built-ins) and descriptor sets read and written
# Each target starts from its seeds (Fuzz/Corpus/TARGET-NAME; the loader's are the bundled scripts and
# the test fixtures) with its dictionary (Fuzz/Dictionaries) and keeps what it learns in
# Fuzz/.build/corpus/TARGET. A failing input is written to Fuzz/findings/ and the script exits 1;
# replay it with `Fuzz/.build/debug/TARGET FILE`.
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${1:-0}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzFraming FuzzWebSocket FuzzWebDAVXML FuzzFTPArguments FuzzAdminJSON FuzzHPACK FuzzHTTP2Frames FuzzResponseFile FuzzMail FuzzIMAP FuzzProtoWire FuzzProtoReader)

# The toolchain's libFuzzer without its main(): SwiftPM gives each executable its own entry point,
# which hands over to LLVMFuzzerRunDriver.
swift_bin="$(dirname "$(readlink -f "$(command -v swiftc)")")"
fuzzer_lib="$(ls "$swift_bin"/../lib/swift/clang/lib/linux/libclang_rt.fuzzer_no_main-*.a 2>/dev/null | head -1)"
[ -n "$fuzzer_lib" ] || { echo "fuzz: this toolchain has no libclang_rt.fuzzer_no_main" >&2; exit 1; }

mkdir -p Fuzz/.build
if [ -n "${FUZZ_SKIP_BUILD:-}" ]; then
    echo "fuzz: FUZZ_SKIP_BUILD is set: the targets built before are run"
elif ! echo "fuzz: building the targets with AddressSanitizer and coverage" || ! swift build --package-path Fuzz -c debug \
        -Xswiftc -sanitize=address \
        -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
        -Xlinker "$fuzzer_lib" -Xlinker -lstdc++ > Fuzz/.build/build.log 2>&1; then
    # gold warns about every ASan symbol it cannot export; those lines are noise.
    grep -v "Cannot export local symbol" Fuzz/.build/build.log >&2
    exit 1
fi
bin="Fuzz/.build/debug"

mkdir -p Fuzz/findings
# The Swift runtime's own crash backtracer would hold the process after a failed precondition.
export SWIFT_BACKTRACE=enable=no
status=0
for target in "${targets[@]}"; do
    options=()
    asan_options="${ASAN_OPTIONS:-}"
    case "$target" in
        FuzzFraming) seeds=(Fuzz/Corpus/framing); dict=http.dict; max_len=4096 ;;
        FuzzWebSocket) seeds=(Fuzz/Corpus/websocket); dict=websocket.dict; max_len=4096 ;;
        # Foundation's XMLParser leaks the CFError it makes of each libxml2 error: not ours to find.
        FuzzWebDAVXML) seeds=(Fuzz/Corpus/webdav-xml); dict=xml.dict; max_len=8192; options=(-detect_leaks=0); asan_options=detect_leaks=0 ;;
        FuzzFTPArguments) seeds=(Fuzz/Corpus/ftp); dict=ftp.dict; max_len=1024 ;;
        FuzzHPACK) seeds=(Fuzz/Corpus/hpack); dict=hpack.dict; max_len=4096 ;;
        FuzzHTTP2Frames) seeds=(Fuzz/Corpus/http2-frames); dict=http2.dict; max_len=4096 ;;
        FuzzMail) seeds=(Fuzz/Corpus/mail); dict=mail.dict; max_len=4096 ;;
        # Each reader input is read three times (whole, split once, in pieces) and a LIST pattern is checked
        # against a reference matcher of pattern-times-name steps: 2 KiB keeps an input fast.
        FuzzIMAP) seeds=(Fuzz/Corpus/imap); dict=imap.dict; max_len=2048 ;;
        FuzzProtoWire) seeds=(Fuzz/Corpus/proto-wire); dict=protowire.dict; max_len=4096 ;;
        # 16 KiB: the descriptor-set seed (the route guide and a proto2 file with descriptor.proto) is 15 KiB.
        FuzzProtoReader) seeds=(Fuzz/Corpus/proto); dict=proto.dict; max_len=16384 ;;
        # 16 KiB: the seeds nested 100,000 deep are read to 16,384 levels, far past the reader's 512 (the
        # unit tests read them whole); longer inputs made a run 10 times slower.
        FuzzAdminJSON) seeds=(Fuzz/Corpus/admin-json Responses); dict=json.dict; max_len=16384 ;;
        FuzzResponseFile) seeds=(Responses Tests/MockServerTests/Fixtures Tests/MockServerTests/Fixtures/malformed); dict=json.dict; max_len=16384 ;;
        *) echo "fuzz: unknown target $target" >&2; exit 2 ;;
    esac
    [ -x "$bin/$target" ] || { echo "fuzz: $bin/$target was not built" >&2; exit 1; }
    corpus="Fuzz/.build/corpus/$target"
    mkdir -p "$corpus"
    echo "fuzz: $target, $runs runs (0: until stopped)"
    if ! ASAN_OPTIONS="$asan_options" "$bin/$target" -runs="$runs" -max_len="$max_len" -dict="Fuzz/Dictionaries/$dict" -timeout=10 -print_final_stats=1 "${options[@]}" \
            -artifact_prefix="Fuzz/findings/$target-" "$corpus" "${seeds[@]}" > "Fuzz/.build/$target.log" 2>&1; then
        tail -40 "Fuzz/.build/$target.log" >&2
        echo "fuzz: $target FAILED; the input is in Fuzz/findings/" >&2
        status=1
    else
        grep -E "^Done|stat::number_of_executed_units|stat::peak_rss_mb" "Fuzz/.build/$target.log" || true
    fi
done
exit $status
