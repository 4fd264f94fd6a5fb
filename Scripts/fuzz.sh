#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ with AddressSanitizer and runs each of them.
#
#   Scripts/fuzz.sh [RUNS] [TARGET...]
#
# RUNS is the number of inputs per target: 0 (the default) runs until a failure or Ctrl-C, and CI
# passes a fixed number. TARGET is FuzzFraming (the line, request and raw framers) or
# FuzzResponseFile (the response-file loader); both by default. Each target starts from its seeds
# (Fuzz/Corpus/framing; the bundled scripts and the test fixtures) and keeps what it learns in
# Fuzz/.build/corpus/TARGET. A failing input is written to Fuzz/findings/ and the script exits 1;
# replay it with `Fuzz/.build/debug/TARGET FILE`.
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${1:-0}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzFraming FuzzResponseFile)

# The toolchain's libFuzzer without its main(): SwiftPM gives each executable its own entry point,
# which hands over to LLVMFuzzerRunDriver.
swift_bin="$(dirname "$(readlink -f "$(command -v swiftc)")")"
fuzzer_lib="$(ls "$swift_bin"/../lib/swift/clang/lib/linux/libclang_rt.fuzzer_no_main-*.a 2>/dev/null | head -1)"
[ -n "$fuzzer_lib" ] || { echo "fuzz: this toolchain has no libclang_rt.fuzzer_no_main" >&2; exit 1; }

mkdir -p Fuzz/.build
echo "fuzz: building the targets with AddressSanitizer and coverage"
if ! swift build --package-path Fuzz -c debug \
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
    case "$target" in
        FuzzFraming) seeds=(Fuzz/Corpus/framing); max_len=4096 ;;
        FuzzResponseFile) seeds=(Responses Tests/MockServerTests/Fixtures Tests/MockServerTests/Fixtures/malformed); max_len=16384 ;;
        *) echo "fuzz: unknown target $target" >&2; exit 2 ;;
    esac
    [ -x "$bin/$target" ] || { echo "fuzz: $bin/$target was not built" >&2; exit 1; }
    corpus="Fuzz/.build/corpus/$target"
    mkdir -p "$corpus"
    echo "fuzz: $target, $runs runs (0: until stopped)"
    if ! "$bin/$target" -runs="$runs" -max_len="$max_len" -timeout=10 -print_final_stats=1 \
            -artifact_prefix="Fuzz/findings/$target-" "$corpus" "${seeds[@]}" > "Fuzz/.build/$target.log" 2>&1; then
        tail -40 "Fuzz/.build/$target.log" >&2
        echo "fuzz: $target FAILED; the input is in Fuzz/findings/" >&2
        status=1
    else
        grep -E "^Done|stat::number_of_executed_units|stat::peak_rss_mb" "Fuzz/.build/$target.log" || true
    fi
done
exit $status
