"""Live streams in `make bench` (`--only live`): commit → other-device latency with many streams
open (on SQLite, and on PostgreSQL with the streams on one node and the events sent to another),
memory per idle stream, idle streams one node holds, and navigation events/s with streams open ÷ without. Numbers are printed, never asserted. Imported by run.py (which passes its helpers)."""
import resource, os, subprocess, tempfile, threading, time


class Streams:
    """Streams read by `bench/streams.c`, one epoll thread in C: the other devices must not take
    the shared cores from the server (a Python reader took a good part of one). `sessions` are
    (id, token) pairs, each watched by `per_session` streams. With `live`, arrivals are reported as
    they come (for the latency run); otherwise only when the reader is closed."""

    def __init__(self, helpers, port, sessions, per_session, live=False):
        self.ids = [session for session, _ in sessions]
        listing = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
        listing.write("".join(f"{session} {token}\n" for session, token in sessions))
        listing.close()
        self.process = subprocess.Popen(
            [os.path.join(helpers["BUILD"], "streams"), str(port), listing.name, str(per_session),
             *(["live"] if live else [])], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.opened = int(self.process.stdout.readline().split()[1])
        os.unlink(listing.name)
        self.arrivals = {}          # (session, version) → [monotonic arrival times]
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self.collect, daemon=True)
        self.thread.start()

    def collect(self):
        for line in self.process.stdout:
            index, version, at = line.split()
            with self.lock:
                self.arrivals.setdefault((self.ids[int(index)], int(version)), []).append(float(at))

    def close(self):
        self.process.stdin.close()
        self.thread.join()
        self.process.wait()


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))] if values else float("nan")


def latency(helpers, server, streams_total, per_session, events, streams_server=None):
    """`streams_total` streams over sessions of `per_session` each; one client posts `events`
    events round the sessions; latency = a frame's arrival − the moment its event was sent.
    With `streams_server` (another node on the same PostgreSQL database), the streams are held
    there and the events sent to `server`: each frame crosses LISTEN/NOTIFY and a read."""
    Client = helpers["Client"]
    sessions = [Client(server.base) for _ in range(max(1, streams_total // per_session))]
    streams = Streams(helpers, (streams_server or server).port, [(c.state["id"], c.token) for c in sessions],
                      per_session, live=True)
    opened = streams.opened
    sent = {}
    for n in range(events):
        client = sessions[n % len(sessions)]
        event = "logIn" if client.top_name() == "firstRun" else "back"
        start = time.monotonic()
        client.send(event)
        sent[(client.state["id"], client.state["version"])] = start
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with streams.lock:
            if all(len(streams.arrivals.get(k, [])) >= per_session for k in sent): break
        time.sleep(0.05)
    with streams.lock:
        samples = [(t - start) * 1000 for k, start in sent.items() for t in streams.arrivals.get(k, [])]
        missing = sum(per_session - len(streams.arrivals.get(k, [])) for k in sent)
    streams.close()
    return {"streams": opened, "events": events, "p50_ms": percentile(samples, 0.5),
            "p99_ms": percentile(samples, 0.99), "missing": missing}


def idle_memory(helpers, server, count):
    """RSS growth per idle stream, and how many idle streams the node took (of `count` tried)."""
    Client = helpers["Client"]
    sessions = [Client(server.base) for _ in range(max(1, count // 8))]
    time.sleep(0.5)
    before = server.rss_kib()
    streams = Streams(helpers, server.port, [(c.state["id"], c.token) for c in sessions], 8)
    opened = streams.opened
    time.sleep(1)
    after = server.rss_kib()
    streams.close()
    return {"tried": count, "opened": opened, "kib_per_stream": (after - before) / max(1, opened)}


def throughput(helpers, server, work, options, streams_count):
    """Navigation events/s (closed loop) without streams; with `streams_count` streams open on
    other sessions, which the load does not drive (what holding streams costs: heartbeats, the
    poller, memory); and with them open on the very sessions the load drives, so that every event
    is also pushed to another device (what pushing costs, here including the receiving device's
    kernel work, which loopback charges to the sender)."""
    path = os.path.join(work, "sessions-live.txt")
    post_id, user_id = helpers["prepare_sessions"](server.base, options.sessions, path)
    lines = [line.split() for line in open(path).read().splitlines()]
    loadgen = helpers["loadgen"]
    run = lambda: loadgen("navigate", server.port, options.connections, options.seconds, 1, path, post_id, user_id,
                          server_pid=server.process.pid)
    watchers = [helpers["Client"](server.base) for _ in range(max(1, streams_count // 10))]
    without = run()
    streams = Streams(helpers, server.port, [(c.state["id"], c.token) for c in watchers], 10)
    held, with_held = streams.opened, run()
    streams.close()
    streams = Streams(helpers, server.port, [(session, token) for session, token, *_ in lines],
                      max(1, streams_count // len(lines)))
    pushed, with_pushed = streams.opened, run()
    streams.close()
    # Once more without, after both: the database grows as the runs go, so the two runs without
    # streams bracket the others and their mean is the baseline.
    after = run()
    without = {key: (without[key] + after[key]) / 2 for key in ("rps", "cpu_user_us", "cpu_sys_us")}
    cpu = lambda run: run["cpu_user_us"] + run["cpu_sys_us"]
    return {"without_rps": without["rps"], "held_rps": with_held["rps"], "held": held,
            "with_rps": with_pushed["rps"], "streams": pushed,
            "held_ratio": with_held["rps"] / max(1, without["rps"]),
            "ratio": with_pushed["rps"] / max(1, without["rps"]),
            # The server's CPU per event: what the streams cost it, whatever else shares the cores.
            "without_cpu_us": cpu(without), "held_cpu_us": cpu(with_held), "with_cpu_us": cpu(with_pushed)}


def two_nodes(helpers, work, options, caps):
    """The latency run on PostgreSQL with two nodes: streams on node B, events sent to node A."""
    cluster = helpers["Postgres"](work)
    try:
        url = cluster.database("live2")
        Server = helpers["Server"]
        a, b = Server(url, *caps), Server(url, *caps)
        try:
            return latency(helpers, a, options.streams, 10, options.live_events, streams_server=b)
        finally:
            a.stop()
            b.stop()
    finally:
        cluster.stop()


def measure(helpers, work, options):
    Server = helpers["Server"]
    # Streams and connections each within half of what the descriptor limit leaves (the server lowers
    # its stream capacity to the descriptors left beside its connections: 20,000 of each on a limit
    # of 20,000 left no stream at all).
    limit = min(20000, (resource.getrlimit(resource.RLIMIT_NOFILE)[1] - 256) // 2)
    caps = ["--max-streams", str(limit), "--max-streams-per-client", str(limit), "--max-streams-per-session", "64",
            "--connection-limit", str(limit), "--per-address-connection-limit", str(limit)]
    server = Server(os.path.join(work, "live.sqlite"), *caps)
    try:
        results = {"latency": latency(helpers, server, options.streams, 10, options.live_events),
                   "idle": idle_memory(helpers, server, options.idle_streams),
                   "throughput": throughput(helpers, server, work, options, options.streams)}
    finally:
        server.stop()
    results["two_nodes"] = two_nodes(helpers, work, options, caps)
    return results


def show(r, options):
    l, i, t = r["latency"], r["idle"], r["throughput"]
    print(f"\nlive streams (SQLite, one node):")
    print(f"  commit → other device: p50 {l['p50_ms']:.2f} ms, p99 {l['p99_ms']:.2f} ms "
          f"({l['streams']} streams open, {l['events']} events, {l['missing']} frames missing)")
    print(f"  idle streams: {i['opened']} of {i['tried']} opened, {i['kib_per_stream']:.1f} KiB RSS each")
    print(f"  navigation events/s: {t['without_rps']:.0f} without streams (mean of a run before and after); {t['held_rps']:.0f} with {t['held']} open on "
          f"other sessions (ratio {t['held_ratio']:.2f}); {t['with_rps']:.0f} with {t['streams']} open on the driven "
          f"sessions, every event pushed (ratio {t['ratio']:.2f})")
    print(f"  server CPU per event: {t['without_cpu_us']:.0f} µs without streams, {t['held_cpu_us']:.0f} µs with them "
          f"held, {t['with_cpu_us']:.0f} µs with every event pushed")
    p = r.get("two_nodes")
    if p:
        print(f"live streams (PostgreSQL, two nodes: events to node A, streams on node B):")
        print(f"  commit → other device: p50 {p['p50_ms']:.2f} ms, p99 {p['p99_ms']:.2f} ms "
              f"({p['streams']} streams open, {p['events']} events, {p['missing']} frames missing)")
