#!/usr/bin/env python3
"""`make bench`: coordinatord against a C baseline on libmicrohttpd, over localhost, one table.

Runs: the baseline (with our load generator and wrk), the navigation load (1,000 signed-in
sessions, 32 keep-alive connections), the same while another client signs in and out, issue 25's
load (signed-out sessions toggling logIn/back; closed loop, then open loop at half its rate), a cold
start on 1,000,000 stored sessions, the memory footprint of 100,000 resident sessions, and the
core (apply one event and render a ten-screen session, no HTTP), and the shipped app's navigation
event in-process (its flow with SQL reads, snapshot, UPDATE, render) on an in-memory database. Numbers are printed, never
asserted. Then the same navigation load on PostgreSQL, with one node and with three nodes on one
database, and one node under issue 25's load (signed-out sessions toggling logIn/back, flows that
read nothing), beside pgbench's simple-update rate on the same cluster. Then live streams (bench/live.py):
commit → other-device latency with --streams open, memory per idle stream, events/s with streams
÷ without. Options: --sessions N --seconds S --cold N --resident N --streams N --idle-streams N;
--only navigation|cold|eviction|postgresql|peer|journal|deploy-check|live runs one section
(postgresql: SQLite's navigation beside PostgreSQL's; journal: the navigation load with
--journal on and off on both stores, the journal's bytes per event and the deploy check; deploy-check:
`coordinatord check-deploy` over a tenth of --cold stored sessions, then all, with its peak RSS; peer: beside the Hummingbird
+ GRDB peer); BENCH_CHECKOUT=DIR in the environment
measures the release build of another checkout, an earlier commit say, with this bench;
BENCH_SERVER_ARGS="--database-pool-size 4" adds arguments to every `serve` the bench starts.
"""
import argparse, concurrent.futures, json, os, random, shlex, shutil, signal, socket, sqlite3, statistics, subprocess, sys, tempfile, threading, time, urllib.request
import live
import durable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.join(ROOT, ".build", "bench")
# BENCH_CHECKOUT=DIR measures the release build of another checkout (an earlier commit, say) with this bench.
CHECKOUT = os.environ.get("BENCH_CHECKOUT", ROOT)
SERVER = os.path.join(CHECKOUT, ".build", "release", "coordinatord")
CORE = os.path.join(CHECKOUT, ".build", "release", "coordinatord-corebench")
APP = os.path.join(CHECKOUT, ".build", "release", "coordinatord-appbench")
# BENCH_SERVER_ARGS="--database-pool-size 4" adds arguments (shell-quoted) to every `serve` the bench starts.
SERVER_ARGS = shlex.split(os.environ.get("BENCH_SERVER_ARGS", ""))
# The peer (bench/peer): Hummingbird 2 + GRDB 7, what a Swift team would write instead; `make bench` builds it.
PEER = os.path.join(ROOT, ".build", "peer", "release", "Peer")
PASSWORD = "correct horse battery staple"


def parse():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--cold", type=int, default=1_000_000)
    parser.add_argument("--resident", type=int, default=100_000)
    parser.add_argument("--capped", type=int, default=200_000, help="stored sessions for the eviction run")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the peer comparison (medians are printed)")
    parser.add_argument("--only", choices=["navigation", "cold", "eviction", "postgresql", "peer", "journal", "deploy-check", "live", "durable"], help="run one section only")
    parser.add_argument("--streams", type=int, default=1000, help="live streams open for the latency and throughput runs")
    parser.add_argument("--idle-streams", type=int, default=10000, help="idle live streams to open for the memory run")
    parser.add_argument("--live-events", type=int, default=500, help="events whose frames the latency run times")
    return parser.parse_args()


def compile_tools():
    os.makedirs(BUILD, exist_ok=True)
    flags = lambda libs: subprocess.check_output(["pkg-config", "--cflags", "--libs", *libs], text=True).split()
    for name, libs in (("baseline", ["libmicrohttpd"]), ("loadgen", []), ("streams", []), ("seed", ["sqlite3", "libsodium"])):
        subprocess.check_call(["gcc", "-O2", "-o", os.path.join(BUILD, name), os.path.join(ROOT, "bench", name + ".c"),
                               "-lpthread", *(flags(libs) if libs else [])])


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def loadgen(*args, server_pid=None, rate=None):
    """Runs the load generator; with `server_pid`, adds the server's CPU time per request
    (user and system, from /proc) spent during the run; with `rate`, open-loop at that many
    requests a second, latency counted from each request's scheduled time."""
    before = cpu_seconds(server_pid) if server_pid else None
    threads_before = thread_usage(server_pid) if server_pid else None
    environment = dict(os.environ, LOADGEN_RATE=str(rate)) if rate else None
    output = subprocess.check_output([os.path.join(BUILD, "loadgen"), *map(str, args)], text=True, env=environment)
    result = json.loads(output.strip().splitlines()[-1])
    if before:
        after = cpu_seconds(server_pid)
        requests = max(1, result["requests"])
        result["cpu_user_us"] = (after[0] - before[0]) * 1e6 / requests
        result["cpu_sys_us"] = (after[1] - before[1]) * 1e6 / requests
        threads_after = thread_usage(server_pid)
        result["threads"] = {
            name: [(threads_after[name][i] - threads_before.get(name, [0, 0, 0])[i]) / requests for i in range(3)]
            for name in threads_after}
    return result


def thread_usage(pid):
    """Per kind of thread of process `pid` (by the name the kernel shows; dispatch's threads, the
    Swift pool and the SQLite readers, share one): [CPU µs, voluntary and involuntary context
    switches] so far. Threads that ended are not counted."""
    usage = {}
    tick = os.sysconf("SC_CLK_TCK")
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/comm") as f: name = f.read().strip()
            with open(f"/proc/{pid}/task/{task}/stat") as f: fields = f.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{pid}/task/{task}/status") as f:
                status = dict(line.split(":", 1) for line in f if ":" in line)
        except FileNotFoundError:
            continue
        name = "dispatch (Swift pool, readers)" if name.endswith("qos") or name.endswith("qos.overcommit") else name
        total = usage.setdefault(name, [0, 0, 0])
        total[0] += (int(fields[11]) + int(fields[12])) * 1e6 / tick
        total[1] += int(status["voluntary_ctxt_switches"])
        total[2] += int(status["nonvoluntary_ctxt_switches"])
    return usage


def cpu_seconds(pid):
    """The user and system CPU seconds process `pid` has used (all its threads)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / ticks, int(fields[12]) / ticks


class Server:
    def __init__(self, database, *extra):
        self.port = free_port()
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            [SERVER, "serve", "--port", str(self.port), "--database", database, "--log-level", "error",
             # The load generator is one client that creates many sessions and signs many in at once.
             "--hash-concurrency", "2", "--sessions-per-minute", "0", "--hashes-per-client", "64", *SERVER_ARGS, *extra], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.process.stdout.readline()
        self.base = f"http://127.0.0.1:{self.port}"

    def rss_kib(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            return next(int(line.split()[1]) for line in status if line.startswith("VmRSS"))

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=60)


def request(base, method, path, body=None, token=None):
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json"} if data is not None else {}
    if token: headers["Authorization"] = "Bearer " + token
    with urllib.request.urlopen(urllib.request.Request(base + path, data=data, method=method, headers=headers)) as r:
        return json.loads(r.read() or b"null")


class Client:
    """One session driven through the app's JSON."""
    def __init__(self, base):
        self.base = base
        created = request(base, "POST", "/v1/sessions", {"platform": "phone"})
        self.token, self.state = created["token"], created["session"]

    def send(self, event, payload=None):
        body = {"screen": self.state["top"], "event": event}
        if payload: body["payload"] = payload
        answer = request(self.base, "POST", f"/v1/sessions/{self.state['id']}/events", body, self.token)
        self.token = answer.pop("token", self.token)
        self.state = answer
        return answer

    def top_name(self):
        for layer in self.state["stack"]:
            for stack in ([t["screens"] for t in layer["tabs"]] if "tabs" in layer else [layer["screens"]]):
                for screen in stack:
                    if screen["id"] == self.state["top"]: return screen["name"]


def prepare_sessions(base, count, path):
    author = Client(base)
    for event, payload in (("signUp", None), ("next", {"email": "author@example.com"}), ("next", {"password": PASSWORD}),
                           ("finish", {"displayName": "Author"})):
        author.send(event, payload)
    for n in range(25):
        author.send("compose")
        author.send("submit", {"text": f"Benchmark post {n}: a sentence of ordinary length to render."})
    post_id = author.state["stack"][0]["tabs"][0]["screens"][0]["props"]["posts"][0]["id"]
    user_id = author.state["user"]["id"]

    def signed_in(_):
        client = Client(base)
        client.send("logIn")
        client.send("submit", {"email": "author@example.com", "password": PASSWORD})
        return client

    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        clients = list(pool.map(signed_in, range(count)))
    with open(path, "w") as file:
        for client in clients:
            file.write(f"{client.state['id']} {client.token} {client.state['top']} {client.top_name()}\n")
    return post_id, user_id


def sign_in_churn(base, stop, counter):
    """Another client signing in and out continuously."""
    client = Client(base)
    while not stop.is_set():
        client.send("logIn")
        client.send("submit", {"email": "author@example.com", "password": PASSWORD})
        client.send("selectTab", {"tab": "profile"})
        client.send("openSettings")
        client.send("signOut")
        counter.append(1)


def first_200(port, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                if s.recv(64).startswith(b"HTTP/1.1 200"): return time.monotonic()
        except OSError:
            time.sleep(0.001)
    raise RuntimeError("no 200")


def eviction(work, options, template):
    """The first event (`logIn`) of every one of `--capped` stored sessions, in random order, with
    the resident cap at half of them (each event restores a session and evicts another) and with
    no cap; the ratio shows whether eviction costs a cliff. Each run starts from the seeded file."""
    database = os.path.join(work, "capped.sqlite")
    subprocess.check_call([SERVER, "migrate", "--database", database, "--log-level", "error"])
    subprocess.check_call([os.path.join(BUILD, "seed"), database, str(options.capped), template])
    touch = os.path.join(work, "capped.txt")
    with open(touch, "w") as f:
        for n in random.sample(range(options.capped), options.capped):
            f.write(f"cold{n} cold-token-{n}\n")
    result = {}
    for name, cap in (("capped", options.capped // 2), ("uncapped", options.capped * 2)):
        run = os.path.join(work, f"capped-{name}.sqlite")
        shutil.copyfile(database, run)
        server = Server(run, "--max-resident-sessions", str(cap))
        result[name] = loadgen("first", server.port, options.connections, 0, 1, touch)
        server.stop()
    return result


class Postgres:
    """A throw-away PostgreSQL cluster with production settings (fsync and synchronous_commit on),
    run as the `postgres` user when we are root (PostgreSQL refuses root)."""
    def __init__(self, work):
        versions = sorted(int(v) for v in os.listdir("/usr/lib/postgresql") if v.isdigit())
        self.bin = f"/usr/lib/postgresql/{versions[-1]}/bin"
        # A folder of its own: the bench's work folder is private to us, and the server's user must reach it.
        self.folder = tempfile.mkdtemp(prefix="coordinatord-bench-pg-")
        if os.getuid() == 0: shutil.chown(self.folder, "postgres")
        self.port = free_port()
        self.run("initdb", "-D", self.folder + "/data", "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C")
        with open(self.folder + "/data/postgresql.conf", "a") as conf:
            conf.write(f"\nport = {self.port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '{self.folder}'\n"
                       "max_connections = 200\nshared_buffers = 256MB\nsynchronous_commit = on\nfsync = on\n")
        self.run("pg_ctl", "-D", self.folder + "/data", "-l", self.folder + "/server.log", "-w", "start")

    def run(self, program, *args, capture=False):
        command = [os.path.join(self.bin, program), *args]
        if os.getuid() == 0: command = ["runuser", "-u", "postgres", "--", *command]
        if capture: return subprocess.check_output(command, text=True, cwd="/tmp", stderr=subprocess.STDOUT)
        subprocess.check_call(command, cwd="/tmp", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def database(self, name):
        self.run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)
        return f"postgresql://postgres@127.0.0.1:{self.port}/{name}"

    def pgbench(self, seconds, connections):
        """pgbench's built-in simple-update script (one UPDATE, one SELECT, one INSERT a transaction)."""
        common = ["-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres"]
        self.run("createdb", *common, "pgbench")
        self.run("pgbench", *common, "-i", "-s", "10", "-q", "pgbench")
        out = self.run("pgbench", *common, "-b", "simple-update", "-c", str(connections), "-j", "2", "-T", str(seconds),
                       "pgbench", capture=True)
        tps = float(next(l for l in out.splitlines() if l.startswith("tps")).split("=")[1].split()[0])
        latency = float(next(l for l in out.splitlines() if l.startswith("latency average")).split("=")[1].split()[0])
        return {"tps": tps, "latency_ms": latency}

    def notify_cost(self, seconds, connections, rounds=2):
        """What `pg_notify` costs at commit: pgbench runs the shape of coordinatord's event write (a
        compare-and-set UPDATE of one of 1,000 rows between BEGIN and COMMIT, one pipeline) with the
        notice inside the transaction, right after its COMMIT, and without one, alternated `rounds`
        times; tps of each round."""
        common = ["-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres"]
        self.run("createdb", *common, "notify")
        self.run("psql", *common, "-d", "notify", "-c",
                 "CREATE TABLE rows (id bigint PRIMARY KEY, version bigint NOT NULL, snapshot bytea NOT NULL); "
                 "INSERT INTO rows SELECT n, 1, decode(repeat('ab', 1000), 'hex') FROM generate_series(1, 1000) n")
        # Each a pipeline, as coordinatord sends it: BEGIN, the compare-and-set, COMMIT, one round trip.
        update = ("WITH updated AS (UPDATE rows SET version = version + 1 WHERE id = :id RETURNING version)"
                  " SELECT (SELECT count(*) FROM updated);")
        notify = "SELECT pg_notify('coordinatord_live', 'c:' || :id);"
        scripts = {
            # The notice inside the transaction (as before: a database-wide lock held through the WAL flush).
            "in": ["BEGIN;", update.replace(" SELECT (SELECT count(*) FROM updated);",
                                            ", noticed AS MATERIALIZED (SELECT pg_notify('coordinatord_live', 'c:' || version || ':' || :id) "
                                            "FROM updated) SELECT (SELECT count(*) FROM updated), (SELECT count(*) FROM noticed);"), "COMMIT;"],
            # The notice right after COMMIT, in the same pipeline (its own transaction): coordinatord now.
            "after": ["BEGIN;", update, "COMMIT;", notify],
            "off": ["BEGIN;", update, "COMMIT;"],
        }
        results = {setting: [] for setting in scripts}
        for _ in range(rounds):
            for setting, lines in scripts.items():
                path = os.path.join(self.folder, f"notify-{setting}.sql")
                with open(path, "w") as f:
                    f.write("\\set id random(1, 1000)\n\\startpipeline\n" + "\n".join(lines) + "\n\\endpipeline\n")
                if os.getuid() == 0: shutil.chown(path, "postgres")
                out = self.run("pgbench", *common, "-n", "-M", "prepared", "-f", path, "-c", str(connections), "-j", "2",
                               "-T", str(seconds), "notify", capture=True)
                results[setting].append(float(next(l for l in out.splitlines() if l.startswith("tps")).split("=")[1].split()[0]))
        return results

    def stop(self):
        self.run("pg_ctl", "-D", self.folder + "/data", "-m", "fast", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


def navigation(server, work, name, options, nodes=()):
    """Signs `--sessions` sessions in through `server`, then runs the navigation load: closed loop
    at `--connections`, then open loop at half the rate reached. With `nodes`, the sessions are split
    over them and each third is driven through its own node at once (rates summed, the worst p99)."""
    sessions = os.path.join(work, f"sessions-{name}.txt")
    post_id, user_id = prepare_sessions(server.base, options.sessions, sessions)
    targets = list(nodes) or [server]
    if len(targets) == 1:
        closed = loadgen("navigate", server.port, options.connections, options.seconds, 1, sessions, post_id, user_id,
                         server_pid=server.process.pid)
        half = max(1, int(closed["rps"] / 2))
        opened = loadgen("navigate", server.port, options.connections, options.seconds, 1, sessions, post_id, user_id,
                         server_pid=server.process.pid, rate=half)
        return {"closed": closed, "open": opened, "rate": half}
    lines = open(sessions).read().splitlines()
    parts = []
    for index, node in enumerate(targets):
        part = os.path.join(work, f"sessions-{name}-{index}.txt")
        with open(part, "w") as f: f.write("\n".join(lines[index::len(targets)]) + "\n")
        parts.append((node, part))

    def spread(rate=None):
        share = max(1, options.connections // len(targets))
        with concurrent.futures.ThreadPoolExecutor(len(targets)) as pool:
            runs = list(pool.map(lambda target: loadgen(
                "navigate", target[0].port, share, options.seconds, 1, target[1], post_id, user_id,
                rate=(rate // len(targets) if rate else None)), parts))
        return {"rps": sum(r["rps"] for r in runs), "p99_ms": max(r["p99_ms"] for r in runs),
                "p50_ms": max(r["p50_ms"] for r in runs), "non2xx": sum(r["non2xx"] for r in runs),
                "late_max_ms": max(r["late_max_ms"] for r in runs)}
    closed = spread()
    half = max(1, int(closed["rps"] / 2))
    return {"closed": closed, "open": spread(half), "rate": half}


def signed_out_sessions(base, count, path):
    """Creates `count` sessions through `base`, left signed out on their first screen, and lists
    them in `path` for the load generator (id, token, top screen id and name, a line each)."""
    with open(path, "w") as file:
        for _ in range(count):
            client = Client(base)
            file.write(f"{client.state['id']} {client.token} {client.state['top']} {client.top_name()}\n")


def toggling(server, work, options, open_loop=False):
    """The load of issue 25's first table: signed-out sessions, each toggling `logIn`/`back`
    (flows that read nothing: on PostgreSQL one round trip an event), closed loop; with
    `open_loop`, then at half the rate reached (under `"open"`, with its group commits)."""
    sessions = os.path.join(work, "sessions-toggle.txt")
    signed_out_sessions(server.base, options.sessions, sessions)
    grouped_before = group_metrics(server.base)
    closed = loadgen("navigate", server.port, options.connections, options.seconds, 1, sessions, 0, 0,
                     server_pid=server.process.pid)
    closed["grouped"] = [after - before for before, after in zip(grouped_before, group_metrics(server.base))]
    if open_loop:
        closed["open"] = open_loop_at_half(server, options, closed, sessions, 0, 0)
    return closed


def open_loop_at_half(server, options, closed, sessions, post_id, user_id):
    """The navigate load on SQLite's `server` at half the rate its `closed` run reached, open loop:
    the run, its `"rate"`, and the group commits it made (`"commits"`)."""
    half = max(1, int(closed["rps"] / 2))
    commits_before = commit_metrics(server.base)
    run = loadgen("navigate", server.port, options.connections, options.seconds, 1, sessions, post_id, user_id,
                  server_pid=server.process.pid, rate=half)
    run["rate"] = half
    run["commits"] = commit_quantiles(commits_before, commit_metrics(server.base), options.seconds)
    return run


def postgresql(work, options):
    """SQLite and PostgreSQL (one node, three nodes) under the same navigation load, and pgbench."""
    results = {}
    server = Server(os.path.join(work, "nav-sqlite.sqlite"))
    results["sqlite"] = navigation(server, work, "sqlite", options)
    server.stop()
    cluster = Postgres(work)
    try:
        results["pgbench"] = cluster.pgbench(options.seconds, options.connections)
        results["notify"] = cluster.notify_cost(options.seconds, options.connections)
        server = Server(cluster.database("nav1"))
        results["one"] = navigation(server, work, "one", options)
        server.stop()
        server = Server(cluster.database("toggle1"))
        results["toggle"] = toggling(server, work, options)
        server.stop()
        url = cluster.database("nav3")
        nodes = [Server(url) for _ in range(3)]
        results["three"] = navigation(nodes[0], work, "three", options, nodes=nodes)
        for node in nodes: node.stop()
    finally:
        cluster.stop()
    return results


def grouping(run):
    """How a PostgreSQL run's writes went: the share sent in group commits and their mean group size."""
    groups, writes = run.get("grouped", (0, 0))
    return f"group commits: {writes / max(1, groups):.1f} writes each, {writes / max(1, run['requests']):.0%} of the events"


def print_postgresql(r, options):
    print(f"\nnavigation on each store ({options.sessions} signed-in sessions, {options.connections} connections, "
          f"{options.seconds} s a run):")
    rows = [("store", "events/s", "p50 ms", "p99 ms", f"open-loop p99 ms (rate)", "generator late, max ms", "non-2xx",
             "CPU µs/event")]
    for key, label in (("sqlite", "SQLite, one node"), ("one", "PostgreSQL, one node"), ("three", "PostgreSQL, three nodes")):
        run = r[key]
        closed = run["closed"]
        rows.append((label, f"{closed['rps']:,.0f}", f"{closed['p50_ms']:.2f}", f"{closed['p99_ms']:.2f}",
                     f"{run['open']['p99_ms']:.2f} ({run['rate']:,}/s)", f"{run['open']['late_max_ms']:.2f}",
                     f"{closed['non2xx'] + run['open']['non2xx']}",
                     cpu(closed) if "cpu_user_us" in closed else "(3 processes)"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows: print("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)))
    print(f"pgbench simple-update on the same cluster, {options.connections} clients: {r['pgbench']['tps']:,.0f} tps "
          f"(average latency {r['pgbench']['latency_ms']:.2f} ms)")
    print(f"PostgreSQL one node events/s ÷ pgbench simple-update tps: "
          f"{r['one']['closed']['rps'] / max(1, r['pgbench']['tps']):.2f} (target ≥ 1.0)")
    toggle = r.get("toggle")
    if toggle:
        # Issue 25's own load: every event a durable navigation event whose flow reads nothing.
        print(f"PostgreSQL one node, signed-out sessions toggling logIn/back (flows that read nothing): "
              f"{toggle['rps']:,.0f} events/s, p50 {toggle['p50_ms']:.2f} ms, p99 {toggle['p99_ms']:.2f} ms, "
              f"CPU µs/event {cpu(toggle)}, non-2xx {toggle['non2xx']}; ÷ pgbench {toggle['rps'] / max(1, r['pgbench']['tps']):.2f}; "
              f"{grouping(toggle)}")
    notify = r.get("notify")
    if notify:
        mean = lambda values: sum(values) / len(values)
        runs = lambda values: ", ".join(f"{v:,.0f}" for v in values)
        off = mean(notify["off"])
        print(f"pg_notify's cost at commit (pgbench, the event's compare-and-set as a pipeline, {options.connections} clients, "
              f"alternated rounds, means; tps ÷ without a notice):")
        for key, label in (("in", "inside the transaction (before)"), ("after", "right after COMMIT, same pipeline (now)")):
            if key in notify:
                print(f"  {label}: {mean(notify[key]):,.0f} ÷ {off:,.0f} tps = {mean(notify[key]) / max(1, off):.2f} "
                      f"(rounds {runs(notify[key])}; without {runs(notify['off'])})")


def snapshot_template(work):
    """A first-run snapshot, from a session the server itself creates."""
    database = os.path.join(work, "template.sqlite")
    server = Server(database)
    request(server.base, "POST", "/v1/sessions", {})
    server.stop()
    template = os.path.join(work, "template.bin")
    db = sqlite3.connect(database)
    with open(template, "wb") as f:
        f.write(db.execute("SELECT snapshot FROM sessions LIMIT 1").fetchone()[0])
    db.close()
    return template


def baseline_runs(work, options, rounds):
    """The C baseline, with our load generator and with wrk, alternated `rounds` times; each one's
    best run is kept, so that neither is judged by a run that shared the two cores with something else."""
    results = {}
    body = os.path.join(work, "event.json")
    with open(body, "w") as f: f.write('{"screen":"s5","event":"openPost","payload":{"postId":25}}')
    port = free_port()
    baseline = subprocess.Popen([os.path.join(BUILD, "baseline"), str(port), "3800", str(os.cpu_count())],
                                stdout=subprocess.PIPE, text=True)
    baseline.stdout.readline()
    runs, wrk_runs = [], []
    for _ in range(rounds):
        runs.append(loadgen("fixed", port, options.connections, options.seconds, 2, "/v1/sessions/x/events", body,
                            server_pid=baseline.pid))
        if shutil.which("wrk"):
            script = os.path.join(work, "post.lua")
            with open(script, "w") as f:
                f.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                        f"wrk.body = [[{open(body).read()}]]\n")
            out = subprocess.check_output(["wrk", "-t2", f"-c{options.connections}", f"-d{options.seconds}s", "-s", script,
                                           f"http://127.0.0.1:{port}/v1/sessions/x/events"], text=True)
            wrk_runs.append(float(next(l for l in out.splitlines() if l.startswith("Requests/sec")).split()[1]))
    results["baseline"] = max(runs, key=lambda run: run["rps"])
    results["generator_runs"] = [run["rps"] for run in runs]
    if wrk_runs: results["wrk_rps"], results["wrk_runs"] = max(wrk_runs), wrk_runs
    baseline.send_signal(signal.SIGTERM); baseline.wait()
    return results


def sqlite_navigation(server, work, options):
    """The navigation load on `server`: closed loop, open loop at half its rate, then closed loop
    again while another client signs in and out."""
    results = {}
    sessions = os.path.join(work, "sessions.txt")
    started, rss_before = time.monotonic(), server.rss_kib()
    post_id, user_id = prepare_sessions(server.base, options.sessions, sessions)
    results["setup_seconds"] = time.monotonic() - started
    results["signed_in_kib"] = (server.rss_kib() - rss_before) / options.sessions
    results["navigation"] = loadgen("navigate", server.port, options.connections, options.seconds, 1, sessions, post_id,
                                    user_id, server_pid=server.process.pid)
    results["navigation_open"] = open_loop_at_half(server, options, results["navigation"], sessions, post_id, user_id)
    stop, signins = threading.Event(), []
    churn = threading.Thread(target=sign_in_churn, args=(server.base, stop, signins))
    churn.start()
    results["navigation_signins"] = loadgen("navigate", server.port, options.connections, options.seconds, 1, sessions,
                                            post_id, user_id, server_pid=server.process.pid)
    stop.set(); churn.join()
    results["signins"] = len(signins)
    results["commits"] = commit_metrics(server.base)
    results["toggle"] = toggling(server, work, options, open_loop=True)
    return results


def group_metrics(base):
    """PostgreSQL's group commits so far and the event writes they held, from `/metrics` (0, 0 on SQLite)."""
    with urllib.request.urlopen(base + "/metrics") as response:
        lines = response.read().decode().splitlines()
    value = lambda name: next((float(l.split()[-1]) for l in lines if l.startswith(name + " ")), 0.0)
    return value("coordinatord_database_group_commits_total"), value("coordinatord_database_grouped_writes_total")


def commit_metrics(base):
    """The server's slow commits (over 100 ms), its longest commit so far, and its histogram of
    commit times (`coordinatord_commit_seconds`: upper bound in seconds → commits so far), from `/metrics`."""
    with urllib.request.urlopen(base + "/metrics") as response:
        lines = response.read().decode().splitlines()
    value = lambda name: next((float(l.split()[-1]) for l in lines if l.startswith(name + " ")), float("nan"))
    buckets = {float(l.split('le="')[1].split('"')[0]): float(l.split()[-1])
               for l in lines if l.startswith('coordinatord_commit_seconds_bucket{le="')}
    return {"slow": value("coordinatord_slow_commits_total"), "longest_ms": value("coordinatord_longest_commit_seconds") * 1000,
            "buckets": buckets}


def commit_quantiles(before, after, seconds):
    """Commits per second between two `commit_metrics`, and their p50 / p99 in ms, interpolated
    within the histogram's buckets as Prometheus's `histogram_quantile` does."""
    bounds = sorted(after["buckets"])
    counts = [after["buckets"][b] - before["buckets"].get(b, 0) for b in bounds]
    total = counts[-1] if counts else 0
    def quantile(q):
        if total == 0: return float("nan")
        rank, lower, below = q * total, 0.0, 0.0
        for bound, count in zip(bounds, counts):
            if count >= rank:
                if bound == float("inf"): return lower * 1000
                return (lower + (bound - lower) * (rank - below) / max(count - below, 1)) * 1000
            lower, below = bound, count
        return float("nan")
    return {"per_s": total / seconds, "p50_ms": quantile(0.5), "p99_ms": quantile(0.99)}


def cold_start(work, options, template):
    """`--cold` sessions stored (each a copy of `template`), then the time to the first 200 and the
    first GET of 5,000 of them in random order, each restored from the file."""
    results = {}
    cold = os.path.join(work, "cold.sqlite")
    subprocess.check_call([SERVER, "migrate", "--database", cold, "--log-level", "error"])
    started = time.monotonic()
    subprocess.check_call([os.path.join(BUILD, "seed"), cold, str(options.cold), template])
    results["seed_seconds"] = time.monotonic() - started
    server = Server(cold)
    results["cold_first_200_ms"] = (first_200(server.port) - server.started) * 1000
    touch = os.path.join(work, "touch.txt")
    with open(touch, "w") as f:
        for n in random.sample(range(options.cold), min(5000, options.cold)):
            f.write(f"cold{n} cold-token-{n}\n")
    results["cold_touch"] = loadgen("touch", server.port, options.connections, 0, 1, touch)
    server.stop()
    return results


def print_cold(r, options):
    print(f"cold start, {options.cold:,} sessions: first 200 after {r['cold_first_200_ms']:.0f} ms; first-touch p99 "
          f"{r['cold_touch']['p99_ms']:.2f} ms, p50 {r['cold_touch']['p50_ms']:.2f} ms ({r['cold_touch']['requests']} sessions, "
          f"{r['cold_touch']['non2xx']} non-2xx; target p99 <= 5)")


def navigation_only(work, options):
    results = baseline_runs(work, options, rounds=1)
    server = Server(os.path.join(work, "nav.sqlite"))
    results.update(sqlite_navigation(server, work, options))
    server.stop()
    return results


def main():
    options = parse()
    compile_tools()
    work = tempfile.mkdtemp(prefix="coordinatord-bench-")
    results = {}
    if options.only:
        measure, show = SECTIONS[options.only]
        try:
            results = measure(work, options)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        show(results, options)
        return
    try:
        # 1. Baseline, with our load generator and with wrk.
        results.update(baseline_runs(work, options, rounds=3))

        # 2-3. Navigation load, then the same under sign-in churn.
        database = os.path.join(work, "nav.sqlite")
        server = Server(database, "--max-resident-sessions", str(max(200_000, options.resident * 2)))
        results.update(sqlite_navigation(server, work, options))

        # 5. Footprint: RSS growth over resident sessions.
        empty = os.path.join(work, "empty.json")
        with open(empty, "w") as f: f.write("{}")
        before = server.rss_kib()
        created = 0
        while created < options.resident:
            created += loadgen("fixed", server.port, 16, 2, 1, "/v1/sessions", empty)["requests"]
        time.sleep(1)
        results["resident"] = {"sessions": created, "rss_growth_kib": server.rss_kib() - before}
        server.stop()
        db = sqlite3.connect(database)
        results["snapshot_bytes_signed_in"] = db.execute("SELECT avg(length(snapshot)) FROM sessions WHERE user_id IS NOT NULL").fetchone()[0]
        # Sessions as created (version 1): a signed-out session that went elsewhere is not a first run.
        results["snapshot_bytes_first_run"] = db.execute(
            "SELECT avg(length(snapshot)) FROM sessions WHERE user_id IS NULL AND version = 1").fetchone()[0]
        template = os.path.join(work, "snapshot.bin")
        with open(template, "wb") as f:
            f.write(db.execute("SELECT snapshot FROM sessions WHERE user_id IS NULL AND version = 1 LIMIT 1").fetchone()[0])
        db.close()

        # 4. Cold start on many stored sessions.
        results.update(cold_start(work, options, template))
        # The deploy check over the same stored sessions.
        results["check_deploy_cold"] = check_deploy(os.path.join(work, "cold.sqlite"))

        # 7. Eviction: no cliff at the resident cap.
        results["eviction"] = eviction(work, options, template)

        # 6. Core.
        results["core"] = json.loads(subprocess.check_output([CORE], text=True))
        results["app"] = json.loads(subprocess.check_output([APP, os.path.join(ROOT, "migrations", "sqlite")], text=True))

        # 8. The same navigation on PostgreSQL: one node, three nodes; pgbench as its anchor.
        results["postgresql"] = postgresql(work, options)

        # 9. Beside the peer a Swift team would write, quiet and with a CPU hog.
        results["peer"] = peer_comparison(work, options)
        # 9. Live streams: latency with 1,000 open, memory per idle stream, events/s with ÷ without.
        results["live"] = live.measure(globals(), work, options)
        # 10. Beside durable C baselines (ours and ../shared/bench's), quiet and with a CPU hog.
        results["durable"] = durable.measure(globals(), work, options)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report(results, options)


class Peer:
    """The Hummingbird 2 + GRDB 7 peer on its own SQLite file, seeded with `count` signed-in sessions."""
    def __init__(self, work, name, count):
        database = os.path.join(work, f"peer-{name}.sqlite")
        self.sessions = os.path.join(work, f"peer-{name}.txt")
        subprocess.check_call([PEER, "seed", database, str(count), self.sessions])
        self.port = free_port()
        self.process = subprocess.Popen([PEER, "serve", str(self.port), database], stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, env=dict(os.environ, LOG_LEVEL="error"))
        self.process.stdout.readline()

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=60)


class CPUHog:
    """One busy process per core at normal priority, as on a production machine that is never idle."""
    def __init__(self):
        self.processes = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count())]

    def stop(self):
        for process in self.processes: process.kill()
        for process in self.processes: process.wait()


def peer_comparison(work, options):
    """coordinatord and the peer under the same navigation load, alternated `--rounds` times, on a
    quiet machine and with a CPU hog beside both; medians of the rounds."""
    server = Server(os.path.join(work, "peer-ours.sqlite"))
    sessions = os.path.join(work, "peer-ours.txt")
    post_id, user_id = prepare_sessions(server.base, options.sessions, sessions)
    peer = Peer(work, "theirs", options.sessions)
    runs = {key: [] for key in ("ours_quiet", "peer_quiet", "ours_busy", "peer_busy")}
    try:
        for _ in range(options.rounds):
            for condition in ("quiet", "busy"):
                hog = CPUHog() if condition == "busy" else None
                try:
                    runs[f"ours_{condition}"].append(loadgen(
                        "navigate", server.port, options.connections, options.seconds, 1, sessions, post_id, user_id,
                        server_pid=server.process.pid))
                    # The peer's posts are 1...25 by user 1; its sessions start on their timelines.
                    runs[f"peer_{condition}"].append(loadgen(
                        "navigate", peer.port, options.connections, options.seconds, 1, peer.sessions, 25, 1,
                        server_pid=peer.process.pid))
                finally:
                    if hog: hog.stop()
    finally:
        server.stop()
        peer.stop()
    median = lambda values: sorted(values)[len(values) // 2]
    return {key: {field: median([run[field] for run in values])
                  for field in ("rps", "p50_ms", "p99_ms", "cpu_user_us", "cpu_sys_us", "non2xx")}
            for key, values in runs.items()}


def print_peer(r, options):
    print(f"\ncoordinatord beside the peer (Hummingbird 2 + GRDB 7, WAL, synchronous=FULL, one write transaction per "
          f"event, Codable stack in a row); {options.sessions} sessions, {options.connections} connections, "
          f"medians of {options.rounds} alternated rounds of {options.seconds} s:")
    rows = [("condition", "server", "events/s", "p50 ms", "p99 ms", "CPU µs/event", "non-2xx")]
    for condition in ("quiet", "busy"):
        for who, label in (("ours", "coordinatord"), ("peer", "peer")):
            run = r[f"{who}_{condition}"]
            rows.append((condition if who == "ours" else "", label, f"{run['rps']:,.0f}", f"{run['p50_ms']:.2f}",
                         f"{run['p99_ms']:.2f}", cpu(run), f"{run['non2xx']:.0f}"))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows: print("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)))
    for condition in ("quiet", "busy"):
        ours, theirs = r[f"ours_{condition}"], r[f"peer_{condition}"]
        print(f"{condition}: events/s ÷ peer's {ours['rps'] / max(1, theirs['rps']):.2f}× (target ≥ 3×); "
              f"p99 ÷ peer's {ours['p99_ms'] / max(0.001, theirs['p99_ms']):.2f}× (target ≤ 0.5×); "
              f"CPU per event ÷ peer's {cpu_total(ours) / max(0.001, cpu_total(theirs)):.2f}×")


def print_eviction(e):
    ratio = e["capped"]["rps"] / e["uncapped"]["rps"] if e["uncapped"]["rps"] else 0
    print(f"eviction: first events of {e['capped']['requests']} stored sessions, random order "
          f"({e['capped']['non2xx'] + e['uncapped']['non2xx']} non-2xx): "
          f"capped at half {e['capped']['rps']:.0f}/s (p99 {e['capped']['p99_ms']:.2f} ms), "
          f"uncapped {e['uncapped']['rps']:.0f}/s (p99 {e['uncapped']['p99_ms']:.2f} ms); ratio {ratio:.2f} (target >= 0.9)")


def cpu(run):
    return f"{cpu_total(run):.0f} ({run.get('cpu_user_us', 0):.0f} + {run.get('cpu_sys_us', 0):.0f})"


def cpu_total(run):
    return run.get("cpu_user_us", 0) + run.get("cpu_sys_us", 0)


def navigation_rows(r, options):
    base = r["baseline"]["rps"]
    nav, churn = r["navigation"], r["navigation_signins"]
    return [
        ("baseline requests/s (C, libmicrohttpd)", f"{base:,.0f}", "", "", ""),
        ("  same baseline driven by wrk", f"{r.get('wrk_rps', 0):,.0f}", "", f"{base / r['wrk_rps']:.2f}× wrk" if r.get("wrk_rps") else "wrk not installed", "loadgen ≥ wrk"),
        (f"navigation events/s ({options.sessions} sessions, {options.connections} conns)", f"{nav['rps']:,.0f}", f"{base:,.0f}", f"{nav['rps'] / base:.2f}", "≥ 0.25"),
        ("navigation p50 / p90 ms", f"{nav['p50_ms']:.2f} / {nav['p90_ms']:.2f}", f"{r['baseline']['p50_ms']:.2f} / {r['baseline']['p90_ms']:.2f}", "", ""),
        ("server CPU µs per request, user + sys: baseline", cpu(r["baseline"]), "", "", ""),
        ("  navigation event", cpu(nav), cpu(r["baseline"]), f"{cpu_total(nav) / cpu_total(r['baseline']):.1f}×", "≤ 3×"),
        ("  navigation event while signing in", cpu(churn), "", "", ""),
        (f"navigation p99 ms, open loop at half the maximum ({r['navigation_open']['rate']:,}/s)",
         f"{r['navigation_open']['p99_ms']:.2f}", "", f"{r['navigation_open']['rps']:,.0f}/s done", "≤ 2"),
        # A stall of the generator (or the machine) counts in the open loop's latency too: this says
        # how late it sent requests whose connection was free, so such a p99 is not the server's.
        ("  load generator's own lateness, p99 / max ms",
         f"{r['navigation_open']['late_p99_ms']:.2f} / {r['navigation_open']['late_max_ms']:.2f}", "", "", ""),
        ("  slowest answer (ms) and when it was due (s into the run)",
         f"{r['navigation_open']['max_ms']:.2f} at {r['navigation_open'].get('max_at_s', float('nan')):.1f}", "", "", ""),
        # Every answer waits for at least one commit, and often for the one in flight before its own:
        # the commits' p99 (mostly the disk's sync) is a floor under the answers'.
        ("  group commits in the open loop: per second, p50 / p99 ms",
         f"{r['navigation_open']['commits']['per_s']:,.0f}/s, {r['navigation_open']['commits']['p50_ms']:.2f} / "
         f"{r['navigation_open']['commits']['p99_ms']:.2f}", "", "", ""),
        ("  group commits over 100 ms (all runs) / the longest, ms",
         f"{r['commits']['slow']:.0f} / {r['commits']['longest_ms']:.1f}", "", "", ""),
        ("navigation p99 ms", f"{nav['p99_ms']:.2f}", f"{r['baseline']['p99_ms']:.2f}", f"{nav['p99_ms'] / r['baseline']['p99_ms']:.1f}", "≤ 5"),
        ("navigation max ms", f"{nav['max_ms']:.2f}", f"{r['baseline']['max_ms']:.2f}", "", ""),
        *thread_rows(nav, r["navigation_open"]),
        ("navigation non-2xx (all runs)", f"{nav['non2xx'] + churn['non2xx'] + r['navigation_open']['non2xx']}", "", "", "0"),
        *toggle_rows(r, options),
        (f"navigation p99 ms while signing in ({r['signins']} sign-in cycles)", f"{churn['p99_ms']:.2f}", "", "", "≤ 5"),
        ("  events/s while signing in", f"{churn['rps']:,.0f}", "", "", ""),
    ]


def toggle_rows(r, options):
    """Issue 25's own load (its first table): signed-out sessions toggling `logIn`/`back`, every
    request a durable navigation event whose flow reads nothing, beside the C baseline."""
    toggle, base = r.get("toggle"), r["baseline"]
    if not toggle: return []
    return [
        (f"toggle logIn/back events/s (signed out, {options.connections} conns)", f"{toggle['rps']:,.0f}",
         f"{base['rps']:,.0f}", f"{toggle['rps'] / base['rps']:.2f}", "≥ 0.25"),
        ("  toggle CPU µs per event, user + sys", cpu(toggle), cpu(base), f"{cpu_total(toggle) / cpu_total(base):.1f}×", "≤ 3×"),
        ("  toggle p50 / p99 ms", f"{toggle['p50_ms']:.2f} / {toggle['p99_ms']:.2f}", "", "", ""),
        *[(f"  toggle CPU µs / context switches per event, {name}", f"{c[0]:.0f} / {c[1] + c[2]:.2f}", "", "", "")
          for name, c in sorted(toggle.get("threads", {}).items(), key=lambda item: -item[1][0]) if c[0] >= 1],
        *open_loop_rows("toggle", toggle.get("open")),
        ("  toggle non-2xx (both runs)", f"{toggle['non2xx'] + toggle.get('open', {}).get('non2xx', 0)}", "", "", "0"),
    ]


def open_loop_rows(name, run):
    """A load's open-loop run at half its maximum: its p99 beside the generator's own lateness
    (a p99 the generator was late for is the machine's, not the server's) and the group commits."""
    if not run: return []
    return [
        (f"  {name} p99 ms, open loop at half the maximum ({run['rate']:,}/s)", f"{run['p99_ms']:.2f}", "",
         f"{run['rps']:,.0f}/s done", "≤ 2"),
        (f"  {name} open loop: load generator's lateness p99 / max ms", f"{run['late_p99_ms']:.2f} / {run['late_max_ms']:.2f}",
         "", "", ""),
        (f"  {name} open loop: group commits per second, p50 / p99 ms",
         f"{run['commits']['per_s']:,.0f}/s, {run['commits']['p50_ms']:.2f} / {run['commits']['p99_ms']:.2f}", "", "", ""),
        (f"  {name} open loop: server CPU µs per event", cpu(run), "", "", ""),
    ]


def thread_rows(closed, open_loop):
    """Where an event's server CPU goes, thread by thread, at saturation and at half of it: a
    lone event wakes each thread on its way (and syncs alone), which a saturated batch shares."""
    rows = []
    for name in sorted(closed.get("threads", {}), key=lambda n: -closed["threads"][n][0]):
        c, o = closed["threads"][name], open_loop.get("threads", {}).get(name, [0, 0, 0])
        if c[0] < 1 and o[0] < 1: continue
        rows.append((f"  CPU µs / context switches per event, {name}", f"{c[0]:.0f} / {c[1] + c[2]:.2f}",
                     "", f"{o[0]:.0f} / {o[1] + o[2]:.2f} open loop", ""))
    return rows


def print_table(rows):
    header = ("figure", "value", "baseline", "ratio", "target")
    widths = [max(len(row[i]) for row in rows + [header]) for i in range(5)]
    line = lambda row: "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row))
    print(line(header))
    print("  ".join("-" * w for w in widths))
    for row in rows: print(line(row))


def print_navigation(r, options):
    print_table(navigation_rows(r, options))
    runs = lambda values: ", ".join(f"{value:,.0f}" for value in values)
    print(f"\n(baseline requests/s, each run: our generator {runs(r['generator_runs'])}; wrk {runs(r.get('wrk_runs', []))})")


def report(r, options):
    touch, core = r["cold_touch"], r["core"]
    per_session = r["resident"]["rss_growth_kib"] / r["resident"]["sessions"]
    rows = navigation_rows(r, options) + [
        (f"cold start, {options.cold:,} sessions: first 200 ms", f"{r['cold_first_200_ms']:.0f}", "", "", "< 1000"),
        (f"cold first-touch p99 ms ({touch['requests']} sessions)", f"{touch['p99_ms']:.2f}", "", "", "≤ 5"),
        (f"memory per resident session KiB ({r['resident']['sessions']:,} sessions)", f"{per_session:.2f}", "", "", "≤ 4"),
        (f"  memory per signed-in session KiB (timeline of 20 posts; {options.sessions} sessions)", f"{r['signed_in_kib']:.1f}", "", "", ""),
        ("snapshot bytes as stored (LZ4): first run / signed in", f"{r['snapshot_bytes_first_run']:.0f} / {r['snapshot_bytes_signed_in']:.0f}", "", "", ""),
        (f"core: apply + render, {core['screens']} screens, µs", f"{core['apply_render_us']:.1f}", "", "", "µs, not ms"),
        ("app event in-process (no HTTP): flow / snapshot / UPDATE / render µs",
         f"{r['app']['apply_us']:.0f} / {r['app']['snapshot_us']:.0f} / {r['app']['update_us']:.0f} / {r['app']['render_us']:.0f}", "", "", ""),
        ("core: snapshot encode / decode µs", f"{core['snapshot_encode_us']:.0f} / {core['snapshot_decode_us']:.0f}", "", "", ""),
        (f"check-deploy, {r['check_deploy_cold']['sessions']:,} stored sessions: sessions/s (peak RSS MiB)",
         f"{r['check_deploy_cold']['sessions'] / r['check_deploy_cold']['seconds']:,.0f} "
         f"({r['check_deploy_cold']['peak_rss_kib'] / 1024:.0f})", "", "", ""),
    ]
    print_table(rows)
    runs = lambda values: ", ".join(f"{value:,.0f}" for value in values)
    print(f"\n(baseline requests/s, each run: our generator {runs(r['generator_runs'])}; wrk {runs(r.get('wrk_runs', []))})")
    print(f"(setup: {r['setup_seconds']:.0f} s to sign in {options.sessions} sessions; seeding {options.cold:,} sessions took {r['seed_seconds']:.0f} s)")
    print_eviction(r["eviction"])
    print_postgresql(r["postgresql"], options)
    print_peer(r["peer"], options)
    live.show(r["live"], options)
    durable.show(r["durable"], options)


# --only NAME: what to measure, and how to print it.
def journal(work, options):
    """The navigation load with the journal on and off (`--journal`), on SQLite and on PostgreSQL:
    events/s and server CPU per event of each, the journal's bytes per event, and the time
    `check-deploy` takes over `--cold` stored sessions. Both servers of a store run at once and
    take alternate bursts (`alternated`): one run after the other swung the ratio by ±20 %."""
    results = {}
    results["sqlite"] = journal_on_and_off(lambda setting: os.path.join(work, f"journal-{setting}.sqlite"), work,
                                           "journal-sqlite", options)
    db = sqlite3.connect(os.path.join(work, "journal-on.sqlite"))
    count, size = db.execute(
        "SELECT count(*), coalesce(sum(length(snapshot) + length(payload) + length(screen) + length(screen_name)"
        " + length(event) + length(node) + length(redacted) + 48), 0) FROM session_journal").fetchone()
    results["sqlite_bytes_per_entry"] = size / count if count else 0
    db.close()
    results["check_deploy"] = deploy_check(work, options)
    cluster = Postgres(work)
    try:
        results["pg"] = journal_on_and_off(lambda setting: cluster.database(f"journal_{setting}"), work, "journal-pg", options)
        out = cluster.run("psql", "-h", "127.0.0.1", "-p", str(cluster.port), "-U", "postgres", "-d", "journal_on", "-At", "-c",
                          "SELECT pg_total_relation_size('session_journal') / greatest(count(*), 1) FROM session_journal",
                          capture=True)
        results["pg_bytes_per_entry"] = float(out.strip() or 0)
    finally:
        cluster.stop()
    return results


def journal_on_and_off(database, work, name, options):
    """`alternated` on a server with the journal on and one with it off, on `database(setting)` each."""
    servers = {setting: Server(database(setting), "--journal", setting) for setting in ("on", "off")}
    try:
        return alternated(servers, work, name, options)
    finally:
        for server in servers.values(): server.stop()


def alternated(servers, work, name, options):
    """Closed-loop navigation bursts of half `--seconds` on each of `servers` ("on", "off"), after a
    warm-up of each, in alternating order for max(5, `--rounds`) rounds: the median of each
    figure per server, and the median of the rounds' on ÷ off events/s."""
    prepared = {}
    for setting, server in servers.items():
        sessions = os.path.join(work, f"sessions-{name}-{setting}.txt")
        prepared[setting] = (server, sessions, *prepare_sessions(server.base, options.sessions, sessions))
    seconds = max(2, options.seconds // 2)

    def burst(setting):
        server, sessions, post_id, user_id = prepared[setting]
        return loadgen("navigate", server.port, options.connections, seconds, 1, sessions, post_id, user_id,
                       server_pid=server.process.pid)
    for setting in servers: burst(setting)
    runs = {setting: [] for setting in servers}
    for round in range(max(5, options.rounds)):
        for setting in (("on", "off") if round % 2 == 0 else ("off", "on")):
            runs[setting].append(burst(setting))
    figures = ("rps", "p99_ms", "cpu_user_us", "cpu_sys_us")
    result = {setting: {key: statistics.median(run[key] for run in rs) for key in figures} for setting, rs in runs.items()}
    result["ratio"] = statistics.median(on["rps"] / off["rps"] for on, off in zip(runs["on"], runs["off"]))
    result["rounds"] = len(runs["on"])
    return result


def print_journal(r, options):
    print(f"\njournal on ÷ off ({options.sessions} signed-in sessions, {options.connections} connections, both servers "
          f"up at once, {r['sqlite']['rounds']} rounds of alternating {max(2, options.seconds // 2)} s bursts, medians; "
          f"target events/s ratio >= 0.9):")
    for store, label in (("sqlite", "SQLite"), ("pg", "PostgreSQL, one node")):
        on, off = r[store]["on"], r[store]["off"]
        cpu_ratio = cpu_total(on) / cpu_total(off) if cpu_total(off) else 0
        print(f"  {label}: {on['rps']:,.0f} vs {off['rps']:,.0f} events/s (ratio {r[store]['ratio']:.2f}); CPU µs/event "
              f"{cpu_total(on):.0f} vs {cpu_total(off):.0f} ({cpu_ratio:.2f}×); p99 {on['p99_ms']:.2f} vs {off['p99_ms']:.2f} ms")
    print(f"  journal bytes per entry: SQLite ~{r['sqlite_bytes_per_entry']:.0f} (row payload), "
          f"PostgreSQL {r['pg_bytes_per_entry']:.0f} (table and index size / rows)")
    print_deploy_check(r["check_deploy"], options)


def check_deploy(database):
    """Runs `check-deploy` (read-only, replaying the journal of 100 sessions) over `database`:
    its seconds, the sessions it checked, and its peak resident memory (the kernel's maximum
    RSS of the process, from wait4)."""
    started = time.monotonic()
    process = subprocess.Popen([SERVER, "check-deploy", "--database", database, "--sample", "100"],
                               stdout=subprocess.PIPE, text=True)
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.monotonic() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"check-deploy exited with {os.waitstatus_to_exitcode(status)}:\n{out}")
    sessions = int(next(line for line in out.splitlines() if line.startswith("sessions:")).split()[1])
    return {"seconds": seconds, "sessions": sessions, "peak_rss_kib": usage.ru_maxrss}


def deploy_check(work, options):
    """The deploy check's speed and memory: a tenth of `--cold` stored sessions (each a copy of a
    first-run snapshot), then all `--cold`; the peak RSS of both shows whether it holds the
    sessions at once (it reads them in batches) or not."""
    checked = os.path.join(work, "check-deploy.sqlite")
    template = snapshot_template(work)
    # First 100 sessions with a journal for the check to replay (and to weigh the journal by).
    server = Server(checked)
    prepare_sessions(server.base, 0, os.path.join(work, "none.txt"))

    def journey(_):
        client = Client(server.base)
        client.send("logIn")
        client.send("submit", {"email": "author@example.com", "password": PASSWORD})
        for event, payload in (("selectTab", {"tab": "profile"}), ("selectTab", {"tab": "home"}),
                               ("selectTab", {"tab": "profile"}), ("openSettings", None), ("signOut", None)):
            client.send(event, payload)

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        list(pool.map(journey, range(100)))
    server.stop()
    results = {"journal": journal_bytes(checked)}
    tenth = options.cold // 10
    subprocess.check_call([os.path.join(BUILD, "seed"), checked, str(tenth), template])
    results["tenth"] = check_deploy(checked)
    subprocess.check_call([os.path.join(BUILD, "seed"), checked, str(options.cold - tenth), template, str(tenth)])
    results["all"] = check_deploy(checked)
    results["database_bytes"] = os.path.getsize(checked)
    os.remove(checked)
    return results


def journal_bytes(database):
    """The journal's entries in `database`, their bytes per entry as stored in the row (the
    columns' lengths and ~48 bytes of row overhead), and the table's and its indexes' pages per
    entry when SQLite has `dbstat`."""
    db = sqlite3.connect(database)
    count, size = db.execute(
        "SELECT count(*), coalesce(sum(length(snapshot) + length(payload) + length(screen) + length(screen_name)"
        " + length(event) + length(node) + length(redacted) + 48), 0) FROM session_journal").fetchone()
    try:
        pages = db.execute("SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'session_journal%'").fetchone()[0]
    except sqlite3.Error:
        pages = None
    db.close()
    return {"entries": count, "row_bytes": size / count if count else 0,
            "page_bytes": pages / count if count and pages else None}


def print_deploy_check(r, options):
    j = r["journal"]
    print(f"  journal bytes per event (SQLite, {j['entries']:,} entries of 101 sessions): ~{j['row_bytes']:.0f} in the row"
          + (f", {j['page_bytes']:.0f} with its pages and indexes" if j["page_bytes"] else ""))
    for run in (r["tenth"], r["all"]):
        print(f"  check-deploy on {run['sessions']:,} stored sessions: {run['seconds']:.1f} s "
              f"({run['sessions'] / run['seconds']:,.0f} sessions/s), peak RSS {run['peak_rss_kib'] / 1024:.0f} MiB")
    print(f"  (the database of {r['all']['sessions']:,} sessions is {r['database_bytes'] / 2**20:,.0f} MiB; "
          f"check-deploy reads it in batches of 500)")


SECTIONS = {
    "navigation": (navigation_only, print_navigation),
    "cold": (lambda work, options: cold_start(work, options, snapshot_template(work)), print_cold),
    "eviction": (lambda work, options: eviction(work, options, snapshot_template(work)), lambda r, options: print_eviction(r)),
    "postgresql": (postgresql, print_postgresql),
    "peer": (peer_comparison, print_peer),
    "journal": (journal, print_journal),
    "deploy-check": (deploy_check, lambda r, options: (print("\ndeploy check:"), print_deploy_check(r, options))),
    "live": (lambda work, options: live.measure(globals(), work, options), lambda r, options: live.show(r, options)),
    "durable": (lambda work, options: durable.measure(globals(), work, options), durable.show),
}


if __name__ == "__main__":
    main()
