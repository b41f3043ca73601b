"""Live streams in `make bench` (`--only live`): commit → other-device latency with many streams
open (on SQLite, and on PostgreSQL with the streams on one node and the events sent to another),
memory per idle stream, idle streams one node holds, and navigation events/s with streams open ÷ without. Numbers are printed, never asserted. Imported by run.py (which passes its helpers)."""
import os, selectors, socket, statistics, threading, time


class Streams:
    """Many SSE streams read by one thread with a selector; records when each version arrived."""

    def __init__(self, port):
        self.port = port
        self.selector = selectors.DefaultSelector()
        self.arrivals = {}          # (session, version) → [monotonic arrival times]
        self.lock = threading.Lock()
        self.sockets = []
        self.stopped = False
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def open(self, session, token):
        """Opens one stream; returns False when the server refused it (a cap, or no connection)."""
        try:
            s = socket.create_connection(("127.0.0.1", self.port), timeout=10)
            s.sendall((f"GET /v1/sessions/{session}/stream HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n"
                       f"Authorization: Bearer {token}\r\n\r\n").encode())
            head = b""
            while b"\r\n\r\n" not in head:
                chunk = s.recv(4096)
                if not chunk: return False
                head += chunk
        except OSError:
            return False
        if not head.startswith(b"HTTP/1.1 200"):
            s.close()
            return False
        s.setblocking(False)
        self.sockets.append(s)
        self.selector.register(s, selectors.EVENT_READ, [session, head.split(b"\r\n\r\n", 1)[1]])
        return True

    def run(self):
        while not self.stopped:
            for key, _ in self.selector.select(timeout=0.1) if self.sockets else []:
                try:
                    data = key.fileobj.recv(65536)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                now = time.monotonic()
                if not data:
                    self.selector.unregister(key.fileobj)
                    continue
                session, buffered = key.data
                buffered += data
                # Chunk sizes interleave with the frames; the `id:` lines are all we need.
                *complete, key.data[1] = buffered.split(b"\n\n")
                for frame in complete:
                    for line in frame.split(b"\n"):
                        if line.startswith(b"id: "):
                            with self.lock:
                                self.arrivals.setdefault((session, int(line[4:])), []).append(now)
            if not self.sockets: time.sleep(0.05)

    def close(self):
        self.stopped = True
        self.thread.join()
        for s in self.sockets: s.close()


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
    streams = Streams((streams_server or server).port)
    opened = sum(streams.open(c.state["id"], c.token) for c in sessions for _ in range(per_session))
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
    streams = Streams(server.port)
    time.sleep(0.5)
    before = server.rss_kib()
    opened = 0
    for client in sessions:
        for _ in range(8):
            opened += streams.open(client.state["id"], client.token)
    time.sleep(1)
    after = server.rss_kib()
    streams.close()
    return {"tried": count, "opened": opened, "kib_per_stream": (after - before) / max(1, opened)}


def throughput(helpers, server, work, options, streams_count):
    """Navigation events/s (closed loop) without streams, then with `streams_count` streams open
    on the very sessions the load drives (so every event is also sent to a stream)."""
    path = os.path.join(work, "sessions-live.txt")
    post_id, user_id = helpers["prepare_sessions"](server.base, options.sessions, path)
    lines = [line.split() for line in open(path).read().splitlines()]
    loadgen = helpers["loadgen"]
    run = lambda: loadgen("navigate", server.port, options.connections, options.seconds, 1, path, post_id, user_id,
                          server_pid=server.process.pid)
    without = run()
    streams = Streams(server.port)
    per_session = max(1, streams_count // len(lines))
    opened = sum(streams.open(session, token) for session, token, *_ in lines for _ in range(per_session))
    with_streams = run()
    streams.close()
    cpu = lambda run: run["cpu_user_us"] + run["cpu_sys_us"]
    return {"without_rps": without["rps"], "with_rps": with_streams["rps"], "streams": opened,
            "ratio": with_streams["rps"] / max(1, without["rps"]),
            # The server's CPU per event: what the streams cost it, whatever else shares the cores.
            "without_cpu_us": cpu(without), "with_cpu_us": cpu(with_streams)}


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
    caps = ["--max-streams", "20000", "--max-streams-per-client", "20000", "--max-streams-per-session", "64",
            "--connection-limit", "20000", "--per-address-connection-limit", "20000"]
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
    print(f"  navigation events/s: {t['without_rps']:.0f} without streams, {t['with_rps']:.0f} with {t['streams']} open "
          f"(ratio {t['ratio']:.2f})")
    print(f"  server CPU per event: {t['without_cpu_us']:.0f} µs without streams, {t['with_cpu_us']:.0f} µs with "
          f"(ratio without ÷ with {t['without_cpu_us'] / max(1e-9, t['with_cpu_us']):.2f})")
    p = r.get("two_nodes")
    if p:
        print(f"live streams (PostgreSQL, two nodes: events to node A, streams on node B):")
        print(f"  commit → other device: p50 {p['p50_ms']:.2f} ms, p99 {p['p99_ms']:.2f} ms "
              f"({p['streams']} streams open, {p['events']} events, {p['missing']} frames missing)")
