#!/usr/bin/env python3
"""Instructions per navigation event, counted by callgrind (repeatable however loaded the machine).

Starts a copy of the release server without its DWARF (valgrind 3.19 cannot read Swift 6's) under
`valgrind --tool=callgrind` with instrumentation off, signs `--sessions` sessions in, warms up,
then counts only while the load generator drives `--seconds` of navigation (the `navigate` mode
of `make bench`), and prints the instructions per event with the top inclusive costs per event.
The profile is kept in `--out` for `callgrind_annotate` (pipe it through `swift demangle`).
Valgrind runs the server's threads one at a time, so an event's instructions, not its time, are
the figure. They are the time on this machine's CPU, though: user time per event runs at about
7,500 instructions per µs for coordinatord and for the durable C server alike (docs/performance.md).
Each figure is split into libmicrohttpd's `memset` of the connection's pool (counted per byte,
a few hundred cycles in time), the SQLite writer and the rest (the HTTP workers).
`--baseline` profiles bench/durable_baseline.c under the same toggle load instead, sized as
coordinatord's toggle event (its answer, state and journal entry): the instruction budget to
compare with. usage: bench/callgrind.py [--server PATH] [--out DIR] [--sessions N] [--seconds S]
[--server-arguments "--journal off"] [--postgresql] [--streams] [--toggle] [--baseline]
"""
import argparse, json, os, shutil, signal, subprocess, sys, tempfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import live, run


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", default=run.SERVER)
    parser.add_argument("--out", default=os.path.join(run.ROOT, ".build", "callgrind"))
    parser.add_argument("--sessions", type=int, default=16)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--server-arguments", default="", help="more arguments of `serve`, e.g. \"--journal off\"")
    parser.add_argument("--postgresql", action="store_true", help="serve from a PostgreSQL cluster started here")
    parser.add_argument("--toggle", action="store_true",
                        help="drive issue 25's load instead: signed-out sessions toggling logIn/back")
    parser.add_argument("--streams", action="store_true",
                        help="open a live stream on each driven session, so that every event is pushed")
    parser.add_argument("--baseline", action="store_true",
                        help="profile the durable C baseline under the toggle load instead of coordinatord")
    options = parser.parse_args()
    run.compile_tools()
    if options.baseline:
        return baseline(options)
    os.makedirs(options.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="coordinatord-callgrind-")
    server = os.path.join(work, "coordinatord")
    subprocess.check_call(["strip", "--strip-debug", "-o", server, options.server])
    # valgrind 3.19 writes into the mask rt_sigsuspend is given; libdispatch's is read-only.
    shim = os.path.join(work, "sigsuspend.so")
    subprocess.check_call(["gcc", "-O2", "-shared", "-fPIC", "-o", shim,
                           os.path.join(run.ROOT, "bench", "sigsuspend-shim.c")])
    profile = os.path.join(options.out, "callgrind.out")
    port = run.free_port()
    cluster = run.Postgres(work) if options.postgresql else None
    database = cluster.database("callgrind") if cluster else os.path.join(work, "db.sqlite")
    process = subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={profile}", server, "serve",
         "--port", str(port), "--database", database, "--log-level", "error",
         "--hash-concurrency", "2", "--sessions-per-minute", "0", "--hashes-per-client", "64",
         *options.server_arguments.split()],
        env=dict(os.environ, LD_PRELOAD=shim), stdout=subprocess.PIPE,
        stderr=open(os.path.join(options.out, "valgrind.log"), "w"), text=True)
    try:
        process.stdout.readline()
        sessions = os.path.join(work, "sessions.txt")
        if options.toggle:
            post_id, user_id = 0, 0
            run.signed_out_sessions(f"http://127.0.0.1:{port}", options.sessions, sessions)
        else:
            post_id, user_id = run.prepare_sessions(f"http://127.0.0.1:{port}", options.sessions, sessions)
        streams = None
        if options.streams:
            lines = [line.split() for line in open(sessions).read().splitlines()]
            streams = live.Streams(vars(run), port, [(session, token) for session, token, *_ in lines], 1)
        run.loadgen("navigate", port, options.connections, 3, 1, sessions, post_id, user_id)
        control = lambda *args: subprocess.check_call(["callgrind_control", *args, str(process.pid)],
                                                      stdout=subprocess.DEVNULL)
        control("-z")
        control("-i", "on")
        result = run.loadgen("navigate", port, options.connections, options.seconds, 1, sessions, post_id, user_id)
        control("-i", "off")
        control("-d")
        if streams: streams.close()
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=120)
        if cluster: cluster.stop()
        shutil.rmtree(work, ignore_errors=True)
    report(options.out, result, writer="static Writer.run(")


def baseline(options):
    """The durable C baseline (SQLite) under callgrind, driven by the toggle load."""
    build = run.BUILD
    flags = subprocess.check_output(["pkg-config", "--cflags", "--libs", "libmicrohttpd", "sqlite3"], text=True).split()
    program = os.path.join(build, "durable_baseline")
    subprocess.check_call(["gcc", "-O2", "-g", "-o", program, os.path.join(run.ROOT, "bench", "durable_baseline.c"),
                           "-lpthread", *flags])
    os.makedirs(options.out, exist_ok=True)
    for stale in os.listdir(options.out):
        if stale.startswith("baseline.out"): os.remove(os.path.join(options.out, stale))
    work = tempfile.mkdtemp(prefix="coordinatord-callgrind-")
    port = run.free_port()
    # Sized as coordinatord's toggle event (bench/durable.py measures them): state, answer, journal entry.
    process = subprocess.Popen(
        ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={options.out}/baseline.out",
         program, str(port), os.path.join(work, "baseline.sqlite"), str(options.sessions), "423", "262", "447", "2"],
        stdout=subprocess.PIPE, stderr=open(os.path.join(options.out, "valgrind.log"), "w"), text=True)
    try:
        lines = [process.stdout.readline() for _ in range(options.sessions)]
        process.stdout.readline()
        sessions = os.path.join(work, "sessions.txt")
        open(sessions, "w").writelines(lines)
        run.loadgen("navigate", port, options.connections, 3, 1, sessions, 0, 0)
        control = lambda *args: subprocess.check_call(["callgrind_control", *args, str(process.pid)],
                                                      stdout=subprocess.DEVNULL)
        control("-z")
        control("-i", "on")
        result = run.loadgen("navigate", port, options.connections, options.seconds, 1, sessions, 0, 0)
        control("-i", "off")
        control("-d")
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
        shutil.rmtree(work, ignore_errors=True)
    report(options.out, result, writer=":writer ", prefix="baseline.out")


def report(folder, result, writer, prefix="callgrind.out."):
    """Prints the instructions per event of the newest dump in `folder`, split, and the top inclusive costs."""
    dumps = sorted((f for f in os.listdir(folder) if f.startswith(prefix) and f != prefix.rstrip(".")),
                   key=lambda f: os.path.getmtime(os.path.join(folder, f)))
    annotated = subprocess.run(["callgrind_annotate", "--inclusive=yes", os.path.join(folder, dumps[-1])],
                               capture_output=True, text=True).stdout
    events = max(1, result["requests"])
    lines = annotated.splitlines()
    total = next(int(l.split()[0].replace(",", "")) for l in lines if "PROGRAM TOTALS" in l)
    print(f"{result['requests']} events ({result['non2xx']} non-2xx): {total / events:,.0f} instructions per event")
    demangle = shutil.which("swift-demangle") or "/opt/swift/usr/bin/swift-demangle"
    readable = subprocess.run([demangle, "--simplified"], input=annotated, capture_output=True, text=True).stdout
    cost = lambda pattern: max((int(l.split()[0].replace(",", "")) for l in readable.splitlines()
                                if "%)" in l and pattern in l), default=0)
    zeroing, writing = cost("__memset_avx2_unaligned_erms"), cost(writer)
    print(f"  libmicrohttpd's memset {zeroing / events:,.0f}, the writer {writing / events:,.0f}, "
          f"the rest (HTTP workers) {(total - zeroing - writing) / events:,.0f}")
    top = [l for l in lines if "(" in l and "%)" in l and "PROGRAM TOTALS" not in l][:40]
    names = subprocess.run([demangle, "--simplified"], input="\n".join(top), capture_output=True, text=True).stdout
    for line in names.splitlines():
        count = int(line.split()[0].replace(",", ""))
        print(f"{count / events:>10,.0f}  {line.split('???:', 1)[-1][:150]}")


if __name__ == "__main__":
    main()
