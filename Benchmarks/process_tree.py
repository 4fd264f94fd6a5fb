"""What a server's processes spend, read from /proc, for the benchmark clients that measure it
themselves (Benchmarks/imap-commands.py, imap-idle.py): a server is a process and its live
descendants (Dovecot's master, its imap processes and services; ours, one process)."""
import os


def tree(pid):
    """PID and its live descendants, from /proc/P/task/T/children."""
    found, stack = [], [pid]
    while stack:
        current = stack.pop()
        found.append(current)
        try:
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as file:
                    stack.extend(int(child) for child in file.read().split())
        except OSError:
            pass  # exited meanwhile
    return found


def cpu_ns(pid):
    """Nanoseconds of CPU run so far by the threads of PID's tree (the first field of
    /proc/P/task/T/schedstat); processes that exited are not counted."""
    total = 0
    for process in tree(pid):
        try:
            for task in os.listdir(f"/proc/{process}/task"):
                with open(f"/proc/{process}/task/{task}/schedstat") as file:
                    total += int(file.read().split()[0])
        except OSError:
            pass
    return total


def memory(pid):
    """(RSS kB, PSS kB, processes) summed over PID's tree: VmRSS from /proc/P/status, and Pss from
    /proc/P/smaps_rollup, which divides each shared page among the processes that map it."""
    rss = pss = processes = 0
    for process in tree(pid):
        try:
            with open(f"/proc/{process}/status") as file:
                rss += next(int(line.split()[1]) for line in file if line.startswith("VmRSS:"))
            with open(f"/proc/{process}/smaps_rollup") as file:
                pss += next(int(line.split()[1]) for line in file if line.startswith("Pss:"))
            processes += 1
        except (OSError, StopIteration):
            pass
    return rss, pss, processes
