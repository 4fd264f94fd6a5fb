#!/usr/bin/env bash
# What Linux can check of the package's Apple builds, with no Mac and no Apple SDK: three checks.
#
#   Scripts/darwin-typecheck.sh                       all three, on the project's files (CI runs this,
#                                                     after its build: the third needs the built modules)
#   Scripts/darwin-typecheck.sh FILE...               1. on those files
#   Scripts/darwin-typecheck.sh --ios-api FILE...     2. on those files
#   Scripts/darwin-typecheck.sh --ios-snippet FILE... 3. on those files
#
# 1. libc, for macOS and iOS. The Darwin branch of every Swift file that calls libc, type-checked
#    against the macOS SDK's C headers. The headers are those PyPI's `ziglang` wheel ships for macOS
#    (the 15.1 SDK's libc headers), fetched once into $DARWIN_HEADERS_CACHE (default
#    ~/.cache/mockserver-darwin-headers). A `Darwin` module is made of them (Scripts/darwin-sdk), with
#    Overlay.swift for the names Swift's Darwin overlay adds. In copies of the files, `canImport(Glibc)`
#    and `os(Linux)` become false and `canImport(Darwin)` true, so the Darwin branches are the ones
#    checked, under Swift 6 strict concurrency: once with `os(macOS)` true, once with `os(iOS)` true and
#    `os(macOS)` false (iOS stands for tvOS and visionOS too: the package has no branch of theirs). The
#    iOS pass uses the macOS headers too (the wheel has no iOS SDK): it checks the branches an iOS build
#    takes, not that iOS's headers declare every name. Foundation, Dispatch and the test frameworks have
#    no Darwin build here: these files must not import them (exit status 2 if one does).
#
# 2. The iOS face of the library targets (the Swift files of Sources/ but the two executables', and of
#    Responses/): a scan of their `#if` blocks, as nothing here compiles them for iOS. It fails when
#    - a `public` or `open` declaration, or an extension that adds a conformance, sits inside a block
#      whose condition names a platform (`os(...)`, `canImport(...)`, `targetEnvironment(...)`,
#      `arch(...)`): the public API must be the same on iOS and Linux, so that check 3 against the
#      Linux-built modules stands for iOS;
#    - a file imports Glibc or Darwin and is neither checked by 1 nor listed below as left out, with why.
#    It lists, and does not fail on, the platform blocks that hold code (not only imports) in files that
#    1 does not check: Apple-only or Linux-only code that nothing here compiles for iOS (the Security
#    delegate of trustingSession, the in-process URLProtocol's branches for Apple's URLSession).
#    It proves that the public declarations and conformances are the same on iOS as on Linux, read as
#    text (a declaration spread over lines, or made by a macro, is read by its first line only); not
#    that the listed blocks compile on iOS.
#
# 3. A README snippet for iOS (by default the first hour, Tests/ReadmeSnippets/FirstHour.swift, which
#    imports Foundation, Testing and MockServerTesting). A copy with the conditions an iOS build sees
#    (`os(iOS)` true; `os(Linux)`, `os(macOS)`, `canImport(Glibc)`, `canImport(FoundationNetworking)`
#    false, ...; any other platform condition is refused as undecidable here) is type-checked, Swift 6
#    mode, against the package's modules as built on Linux and this toolchain's Foundation and Testing,
#    with Scripts/ios-snippet/iOSFoundation.swift beside it in the snippet's module. That file re-exports
#    FoundationNetworking and FoundationXML (Apple's Foundation has URLSession and XMLParser in it), gives
#    SwiftPM's `Bundle.module`, and declares again, unavailable, the types Linux's Foundation has and
#    iOS's lacks (Process, Host, SocketPort, PortMessage, the XMLDocument family). The type-checked
#    syntax tree (`swiftc -dump-ast`) is then searched for references to members iOS lacks
#    (`ios_unavailable` below: ProcessInfo.userName, FileManager.homeDirectoryForCurrentUser, ...) and
#    to libc names that Linux's Foundation re-exports from Glibc. Without MOCKSERVER_MODULES (a folder of
#    built .swiftmodule files), `swift build --target MockServerTesting` builds the modules first (a null
#    build when they are current).
#    It proves: with the conditions iOS sees, the snippet compiles against MockServer's public API and
#    names nothing in the lists above. It does not prove: that Apple's Foundation, URLSession or Testing
#    declare what Linux's do with the same types and availability (they are Linux's here), the
#    `@available` versions (iOS 16 and the Swift 6.1 traits are not checked), the libc names of
#    Apple's Darwin (check 1 does that for the package's files), or anything at run time on a device.
#
# Exit status: 0 when every check run is clean; otherwise the last failing check's (swiftc's status,
# 1 for a scan's finding, 2 for a file that check 1 cannot take).
set -euo pipefail
cd "$(dirname "$0")/.."

# The files that call libc and import nothing that lacks a Darwin build here (check 1's default).
libc_files=(Sources/MockServerCore/Socket/*.swift Sources/MockServerTLS/OpenSSL/OpenSSLLibrary.swift Sources/MockServerTLS/TLSError.swift
            Tests/TestSupport/TestClient.swift Tests/TestSupport/ProcessResources.swift Tests/TestSupport/PipeReading.swift
            Tests/TestSupport/ChildProcess.swift Sources/MockServerTesting/URLSessionWebSockets.swift)
# Library files that import Glibc or Darwin and that check 1 cannot take, each with why.
libc_left_out=(
    # Its libc names (EPROTO, memcpy) are the same on Darwin, but it imports MockServerCore, whose
    # modules have no Darwin build here.
    Sources/MockServerTLS/TLSTransport.swift
)
# Check 3's default snippet.
snippets=(Tests/ReadmeSnippets/FirstHour.swift)

# Members and functions that Linux's Foundation declares and iOS's does not (a type is hidden by
# Scripts/ios-snippet/iOSFoundation.swift instead), as they appear in `swiftc -dump-ast`, with where
# Apple says so. Each is an extended regular expression on the declaration's name after its module.
ios_unavailable=(
    # https://developer.apple.com/documentation/foundation/processinfo/username and …/fullusername:
    # macOS 10.12 only (NSProcessInfo.h: API_UNAVAILABLE(ios, watchos, tvos)).
    'ProcessInfo( extension)?\.(userName|fullUserName)'
    # https://developer.apple.com/documentation/foundation/filemanager/homedirectoryforcurrentuser and
    # …/homedirectory(foruser:): macOS 10.12 only (NSFileManager.h: API_UNAVAILABLE(ios, watchos, tvos)).
    'FileManager( extension)?\.(homeDirectoryForCurrentUser|homeDirectory\(forUser:\))'
    # The types of iOSFoundation.swift, named with their module (`Foundation.Process()`), which no
    # declaration of the snippet's module can hide.
    '(Process|Host|SocketPort|PortMessage|XMLDocument|XMLElement|XMLNode|XMLDTD|XMLDTDNode)( extension)?\.'
)

mode=libc
case "${1:-}" in
    --ios-api) mode=api; shift ;;
    --ios-snippet) mode=snippet; shift ;;
    --*) echo "darwin-typecheck: unknown option $1 (--ios-api, --ios-snippet)" >&2; exit 2 ;;
    "") mode=all ;;
esac
if [ "$mode" != all ] && [ "$mode" != libc ] && [ "$#" -eq 0 ]; then
    echo "darwin-typecheck: --ios-api and --ios-snippet take files" >&2; exit 2
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0

# 1. The Darwin branches of libc-facing files, for macOS and for iOS.
check_libc() {
    local file platform ios mac pass
    for file in "$@"; do
        if grep -qE '^import (Foundation|Dispatch|Testing|XCTest)' "$file"; then
            echo "darwin-typecheck: $file imports a Swift library that has no Darwin build here; keep libc calls in files without it (a README snippet is checked with --ios-snippet)" >&2
            return 2
        fi
    done
    local cache="${DARWIN_HEADERS_CACHE:-$HOME/.cache/mockserver-darwin-headers}"
    local headers="$cache/wheel/ziglang/lib/libc/include/any-macos-any"
    if [ ! -d "$headers" ]; then
        mkdir -p "$cache"
        python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$cache" 'ziglang==0.14.1'
        python3 -m zipfile -e "$cache"/ziglang-*.whl "$cache/wheel"
    fi
    local clang_include
    clang_include="$(dirname "$(dirname "$(command -v swiftc)")")/lib/swift/clang/include"
    local result=0
    for platform in macOS iOS; do
        rm -rf "$work/$platform"; mkdir "$work/$platform"
        if [ "$platform" = macOS ]; then ios=false; mac=true; else ios=true; mac=false; fi
        for file in "$@"; do
            sed -e 's/canImport(Glibc)/false/g' -e 's/os(Linux)/false/g' -e 's/canImport(Darwin)/true/g' \
                -e "s/os(macOS)/$mac/g" -e "s/os(iOS)/$ios/g" -e 's/os(tvOS)/false/g' -e 's/os(visionOS)/false/g' -e 's/os(watchOS)/false/g' \
                -e '/^import CMockServerLinux$/d' "$file" > "$work/$platform/$(basename "$file")"
        done
        cp Scripts/darwin-sdk/Overlay.swift "$work/$platform/"
        echo "darwin-typecheck: libc, $# files, $platform branches, against $headers"
        swiftc -typecheck -wmo -swift-version 6 -module-name DarwinTypecheck -package-name MockServer -I Scripts/darwin-sdk \
            -Xcc -nostdinc -Xcc -isystem -Xcc "$clang_include" -Xcc -isystem -Xcc "$headers" \
            -Xcc -U__linux__ -Xcc -U__linux -Xcc -Ulinux -Xcc -U__gnu_linux__ -Xcc -D__APPLE__ -Xcc -D__MACH__ \
            -Xcc -D__ENVIRONMENT_MAC_OS_X_VERSION_MIN_REQUIRED__=130000 \
            "$work/$platform"/*.swift > "$work/log" 2>&1 && pass=0 || pass=$?
        grep -v 'libc not found' "$work/log" || true
        if [ "$pass" -eq 0 ]; then echo "darwin-typecheck: libc, $platform clean"; else result=$pass; fi
    done
    return "$result"
}

# 2. The library targets' `#if` blocks: no public API under a platform condition, every libc-facing
# file checked by 1 or said to be left out, and a list of the platform code nothing here compiles for iOS.
check_ios_api() {
    printf '%s\n' "${libc_files[@]}" > "$work/libc-checked"
    printf '%s\n' "${libc_left_out[@]}" > "$work/libc-left-out"
    awk -v checked="$work/libc-checked" -v leftout="$work/libc-left-out" '
        BEGIN {
            while ((getline line < checked) > 0) libc[line] = 1
            while ((getline line < leftout) > 0) told[line] = 1
        }
        FNR == 1 { depth = 0; files++ }
        function platform(condition) { return condition ~ /(os|canImport|targetEnvironment|arch)\(/ }
        /^[[:space:]]*import (Glibc|Darwin)([[:space:]]|$)/ && !(FILENAME in libc) && !(FILENAME in told) {
            print "darwin-typecheck: " FILENAME ": imports " $2 " but is not among the files the libc check takes (nor listed as left out, with why)"
            told[FILENAME] = 1; failed = 1
        }
        /^[[:space:]]*#if[[:space:]]/ {
            depth++; start[depth] = FNR; condition[depth] = $0; plat[depth] = platform($0); code[depth] = 0; next
        }
        /^[[:space:]]*#elseif[[:space:]]/ { if (depth > 0 && platform($0)) plat[depth] = 1; next }
        /^[[:space:]]*#else([[:space:]]|$)/ { next }
        /^[[:space:]]*#endif/ {
            if (depth > 0) {
                if (plat[depth] && code[depth] && !(FILENAME in libc)) {
                    sub(/^[[:space:]]+/, "", condition[depth])
                    listed = listed "\n  " FILENAME ":" start[depth] " " condition[depth]; unchecked++
                }
                if (plat[depth]) blocks++
                depth--
            }
            next
        }
        {
            inside = 0
            for (level = 1; level <= depth; level++) if (plat[level]) inside = level
            if (!inside) next
            if ($0 ~ /^[[:space:]]*(\/\/|$)/ || $0 ~ /^[[:space:]]*import[[:space:]]/) next
            for (level = 1; level <= depth; level++) if (plat[level]) code[level] = 1
            if ($0 ~ /^[[:space:]]*(@[A-Za-z_]+(\([^)]*\))?[[:space:]]+)*([a-z]+[[:space:]]+)*(public|open)[[:space:]]/) {
                print "darwin-typecheck: " FILENAME ":" FNR ": a public declaration under a platform condition (line " start[inside] "), so iOS and Linux would not have the same API: " $0
                failed = 1
            } else if ($0 ~ /^[[:space:]]*(@[A-Za-z_]+(\([^)]*\))?[[:space:]]+)*extension[[:space:]]+[A-Za-z_.]+[[:space:]]*:/) {
                print "darwin-typecheck: " FILENAME ":" FNR ": a conformance under a platform condition (line " start[inside] "), which a public type would have on one platform only: " $0
                failed = 1
            }
        }
        END {
            print "darwin-typecheck: iOS API, " files " files, " blocks + 0 " platform blocks: " (failed ? "FAILED" : "no public declaration or conformance under a platform condition") "; " unchecked + 0 " blocks of code that no check here compiles for iOS (Apple-only or Linux-only):" listed
            exit failed
        }
    ' "$@"
}

# 3. A README snippet, with the conditions an iOS build sees, against the package's modules.
check_ios_snippet() {
    local modules="${MOCKSERVER_MODULES:-}"
    if [ -z "$modules" ]; then
        echo "darwin-typecheck: iOS snippet, building its imports (swift build --target MockServerTesting)"
        swift build --target MockServerTesting > "$work/build.log" 2>&1 || { cat "$work/build.log"; return 1; }
        modules="$(swift build --show-bin-path)/Modules"
    fi
    local modulemap
    modulemap="$(dirname "$modules")/CMockServerLinux.build/module.modulemap"
    local unavailable
    unavailable="$(IFS='|'; echo "${ios_unavailable[*]}")"
    local file copy pass result=0
    for file in "$@"; do
        rm -rf "$work/snippet"; mkdir "$work/snippet"
        copy="$work/snippet/$(basename "$file")"
        # Line for line, so that the compiler's lines are the file's.
        sed -E -e 's/os\(iOS\)/true/g' -e 's/os\((macOS|tvOS|watchOS|visionOS|Linux|Windows|Android|FreeBSD|OpenBSD|WASI)\)/false/g' \
            -e 's/canImport\((Glibc|Musl|Bionic|WinSDK|Android|FoundationNetworking|FoundationXML)\)/false/g' \
            -e 's/canImport\((Darwin|Foundation|Dispatch|Testing|XCTest|MockServer[A-Za-z]*)\)/true/g' "$file" > "$copy"
        if grep -nE '^[[:space:]]*#(if|elseif).*(os|canImport|targetEnvironment|arch)\(' "$copy" | sed "s|^|$file:|;s|\$|: a platform condition this check cannot decide for iOS|" | grep . >&2; then
            result=1; continue
        fi
        cp Scripts/ios-snippet/iOSFoundation.swift "$work/snippet/"
        rm -f "$work/snippet.ast"
        echo "darwin-typecheck: iOS snippet, $file against $modules"
        swiftc -dump-ast -swift-version 6 -module-name ReadmeSnippetOnIOS -I "$modules" -Xcc -fmodule-map-file="$modulemap" \
            "$copy" "$work/snippet/iOSFoundation.swift" > "$work/out" 2>&1 && pass=0 || pass=$?
        # The output holds each file's type-checked tree (every line of it starts with "(" after its
        # indentation), then that file's diagnostics, the first glued to the tree's last line: split
        # them, print the diagnostics, and keep the snippet's tree, which is written after errors too,
        # where it could be typed.
        sed -E "s#\)($copy|$work/snippet/iOSFoundation.swift)(:[0-9]+:[0-9]+: (error|warning|note|remark):)#)\\n\\1\\2#" "$work/out" \
            | awk -v copy="$copy" -v tree="$work/snippet.ast" '
                /^[[:space:]]*\(/ {
                    if (index($0, "(source_file ") == 1) mine = index($0, "(source_file \"" copy "\"") == 1
                    if (mine) print > tree
                    next
                }
                { print }' | sed -e "s|$copy|$file|g" -e "s|$work/snippet/|Scripts/ios-snippet/|g" >&2
        local failed=$pass
        # References in the snippet, as "LINE<tab>Module.(file).Name" with the line of the use.
        touch "$work/snippet.ast"
        awk '
            match($0, /(decl|bind)="[^"]*"/) {
                name = substr($0, RSTART, RLENGTH); sub(/^(decl|bind)="/, "", name); sub(/["@].*/, "", name); sub(/ \[with .*/, "", name)
                line = "?"
                if (match($0, /location=[^ ]*:[0-9]+:[0-9]+/)) { count = split(substr($0, RSTART, RLENGTH), parts, ":"); line = parts[count - 1] }
                print line "\t" name
            }' "$work/snippet.ast" | sort -u | sort -t "$(printf '\t')" -k1,1n -s > "$work/refs"
        if grep -P "^\S+\tFoundation[A-Za-z]*\.\(file\)\.($unavailable)" "$work/refs" > "$work/found"; then
            awk -F'\t' -v file="$file" '{ sub(/^[A-Za-z]+\.\(file\)\./, "", $2); gsub(/ extension/, "", $2)
                print file ":" $1 ": not on iOS: " $2 " (Apple documents it for macOS only: Scripts/darwin-typecheck.sh, ios_unavailable)" }' "$work/found" >&2
            [ "$failed" -ne 0 ] || failed=1
        fi
        if grep -P '^\S+\t(SwiftGlibc|Glibc)\.\(file\)\.' "$work/refs" > "$work/found"; then
            awk -F'\t' -v file="$file" '{ sub(/^[A-Za-z]+\.\(file\)\./, "", $2); print file ":" $1 ": " $2 ": a libc name from Glibc, which Linux'"'"'s Foundation re-exports (iOS'"'"'s re-exports Darwin, which this check cannot compile against): keep libc calls out of a snippet" }' "$work/found" >&2
            [ "$failed" -ne 0 ] || failed=1
        fi
        if [ "$failed" -ne 0 ]; then result=$failed; echo "darwin-typecheck: iOS snippet, $file FAILED (above)"; continue; fi
        echo "darwin-typecheck: iOS snippet, $file clean: it names $(cut -f2 "$work/refs" | sort -u | grep -c '^Foundation' || true) declarations of Foundation and $(cut -f2 "$work/refs" | sort -u | grep -c '^MockServer' || true) of MockServer, none that iOS lacks"
    done
    return "$result"
}

run() { "$@" || status=$?; }
case "$mode" in
    libc) run check_libc "$@" ;;
    api) run check_ios_api "$@" ;;
    snippet) run check_ios_snippet "$@" ;;
    all)
        run check_libc "${libc_files[@]}"
        mapfile -t library < <(find Sources Responses -name '*.swift' -not -path 'Sources/mockserver/*' -not -path 'Sources/mockserver-bench/*' | sort)
        run check_ios_api "${library[@]}"
        run check_ios_snippet "${snippets[@]}"
        ;;
esac
exit "$status"
