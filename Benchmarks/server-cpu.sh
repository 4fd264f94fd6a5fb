# Sourced by the session benchmarks: what a server process itself spends, which a noisy shared machine
# disturbs far less than a client's wall-clock rate.
#   cpu_ns PID                 the CPU time (ns) all of PID's threads have run, from
#                              /proc/PID/task/*/schedstat (threads that exited are not counted:
#                              the servers measured here keep theirs).
#   user_sys_ticks PID         PID's user and system CPU time so far, in clock ticks (`getconf CLK_TCK`
#                              a second), from /proc/PID/stat: "USER SYSTEM".
#   syscalls_per PID N CMD...  runs CMD... while `strace -c -f` counts PID's system calls, then prints
#                              the calls made per unit of N, one "name=count" per kind, commonest first,
#                              and "total=count" (N is what CMD did: sessions, requests).
#                              CMD prints its unit count as its last line when N is "-".

user_sys_ticks() { awk '{ sub(/^.*\) /, ""); print $12, $13 }' /proc/"$1"/stat 2>/dev/null; }

cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ total += $1 } END { printf "%.0f", total }'; }

syscalls_per() {
    local pid=$1 n=$2 out
    shift 2
    out=$(mktemp)
    strace -c -f -q -p "$pid" -o "$out" &
    local tracer=$!
    sleep 0.5  # strace attaches asynchronously and has no readiness signal
    local printed
    printed=$("$@")
    [ "$n" = - ] && n=$(tail -n 1 <<<"$printed")
    kill -INT "$tracer"; wait "$tracer" 2>/dev/null || true
    awk -v n="$n" '$NF ~ /^[a-z_0-9]+$/ && $4 ~ /^[0-9]+$/ && $NF != "total" { c[$NF] = $4; t += $4 }
        END { for (k in c) printf "%s=%.1f\n", k, c[k] / n | "sort -t= -k2 -rn"; close("sort -t= -k2 -rn"); printf "total=%.1f\n", t / n }' "$out"
    rm -f "$out"
}
