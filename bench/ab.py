#!/usr/bin/env python3
"""A/B of two coordinatord release binaries on SQLite's toggle load (signed-out sessions toggling
logIn/back), in alternated rounds on the same machine and minutes: the steadier instrument for a
change's effect on CPU per event, which one run of `make bench` cannot call within ±10 %.

Per round and binary: a closed-loop wrk round (16 connections; events/s and CPU µs per event),
then an open-loop round at --rate events/s (bench/loadgen.c; p99 and CPU per event by thread,
user and kernel, from /proc). Prints the medians. Callgrind's instruction counts do not stand in
for this: cutting 14 % of an event's instructions moved none of these figures (docs/performance.md).

usage: bench/ab.py BEFORE AFTER [--rounds N] [--seconds S] [--rate R]
(BEFORE, AFTER: paths of release builds, e.g. an earlier commit's `swift build -c release` in a
worktree, copied aside.)
"""
import argparse, collections, os, statistics, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import durable, run


def threads(pid):
    """CPU seconds (user, kernel) per thread name of process `pid`."""
    tick = os.sysconf("SC_CLK_TCK")
    totals = collections.defaultdict(lambda: [0.0, 0.0])
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            stat = open(f"/proc/{pid}/task/{task}/stat").read()
        except OSError:
            continue  # the thread ended meanwhile
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat.rsplit(")", 1)[1].split()
        totals[name][0] += int(fields[11]) / tick
        totals[name][1] += int(fields[12]) / tick
    return totals


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--rate", type=int, default=6000)
    options = parser.parse_args()
    run.compile_tools()
    helpers = {name: getattr(run, name) for name in dir(run)}
    work = tempfile.mkdtemp(prefix="coordinatord-ab-")
    servers = []
    try:
        for index, binary in enumerate((options.before, options.after)):
            run.SERVER = os.path.abspath(binary)
            server = run.Server(os.path.join(work, f"ab{index}.sqlite"))
            listed = os.path.join(work, f"ab{index}.txt")
            run.signed_out_sessions(server.base, 16, listed)
            servers.append((binary, server, listed))
        figures = {binary: collections.defaultdict(list) for binary, _, _ in servers}
        for round_number in range(options.rounds):
            for binary, server, listed in servers if round_number % 2 == 0 else servers[::-1]:
                pid, kept = server.process.pid, figures[binary]
                closed = durable.wrk(helpers, pid, server.port, listed, 16, options.seconds)
                kept["closed events/s"].append(closed["rps"])
                kept["closed CPU µs/event"].append(closed["cpu_us"])
                before = threads(pid)
                opened = run.loadgen("navigate", server.port, 16, options.seconds, 1, listed, 0, 0,
                                     server_pid=pid, rate=options.rate)
                after = threads(pid)
                events = opened["rps"] * options.seconds
                kept["open p99 ms"].append(opened["p99_ms"])
                for name, (user, kernel) in after.items():
                    kept[f"open {name} user µs/event"].append((user - before[name][0]) * 1e6 / events)
                    kept[f"open {name} kernel µs/event"].append((kernel - before[name][1]) * 1e6 / events)
        print(f"{options.rounds} alternated rounds of {options.seconds} s; open loop at {options.rate:,}/s; medians")
        names = [name for name in figures[options.before] if statistics.median(figures[options.before][name]) >= 0.5]
        print(f"| figure | {options.before} | {options.after} |\n|---|---|---|")
        for name in names:
            values = [statistics.median(figures[binary][name]) for binary in (options.before, options.after)]
            print(f"| {name} | {values[0]:,.1f} | {values[1]:,.1f} |")
    finally:
        for _, server, _ in servers:
            server.stop()


if __name__ == "__main__":
    main()
