"""`make bench BENCH_ARGS="--only durable"` (and part of `make bench`): coordinatord beside durable
C baselines on the toggle load (issue 52). Servers, alternated round by round with wrk
(bench/toggle.lua, 16 connections each driving its own session through logIn/back):

- `durable (ours)`: bench/durable_baseline.c, the least durable work per event (one writer, group
  commit, WAL with synchronous=FULL, an answer only after COMMIT); sizes matched to coordinatord's
  answer, stored snapshot and journal entry;
- `durable (reference)`: ../shared/bench/durable_baseline.c, the outside instrument, when present
  (ours must agree with it within 10 %);
- `fixed`: bench/baseline.c, an answer without a database (the HTTP layer's limit);
- `coordinatord` on SQLite, journal on.

Printed: events/s, CPU µs per event (the server process, user + system), p50/p99, each beside
durable (ours), as medians over the rounds; quiet, then beside a CPU hog (two busy loops)."""
import os, signal, sqlite3, statistics, subprocess, time

SHARED = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "shared", "bench")


def measure(run, work, options):
    """`run` is bench/run.py's globals (its Server, helpers and paths)."""
    build, root = run["BUILD"], run["ROOT"]
    flags = subprocess.check_output(["pkg-config", "--cflags", "--libs", "libmicrohttpd", "sqlite3"], text=True).split()
    subprocess.check_call(["gcc", "-O2", "-o", os.path.join(build, "durable_baseline"),
                           os.path.join(root, "bench", "durable_baseline.c"), "-lpthread", *flags])
    reference = os.path.join(SHARED, "durable_baseline.c")
    if os.path.exists(reference):
        subprocess.check_call(["gcc", "-O2", "-o", os.path.join(build, "reference_durable"), reference, "-lpthread", *flags])
    connections = 16

    # coordinatord first: its sizes are what the baselines store and answer.
    server = run["Server"](os.path.join(work, "durable-coordinatord.sqlite"))
    sessions = os.path.join(work, "durable-coordinatord.txt")
    run["signed_out_sessions"](server.base, connections, sessions)
    probe = run["Client"](server.base)
    answer = len(__import__("json").dumps(probe.send("logIn"), separators=(",", ":")))
    probe.send("back")
    db = sqlite3.connect(os.path.join(work, "durable-coordinatord.sqlite"))
    state = int(db.execute("SELECT avg(length(snapshot)) FROM sessions").fetchone()[0])
    journal = int(db.execute(
        "SELECT avg(length(payload) + length(redacted) + length(event) + coalesce(length(snapshot), 0) + 48) FROM session_journal"
    ).fetchone()[0] or 0)
    db.close()
    sizes = {"answer": answer, "state": state, "journal": journal}

    servers = {"coordinatord": (server.process, server.port, sessions)}
    processes = []

    def start_own():
        port = run["free_port"]()
        path = os.path.join(work, "durable-own.sqlite")
        process = subprocess.Popen([os.path.join(build, "durable_baseline"), str(port), path, str(connections), str(state),
                                    str(answer), str(journal), "2"], stdout=subprocess.PIPE, text=True)
        lines = [process.stdout.readline() for _ in range(connections)]
        assert process.stdout.readline().strip() == "ready"
        listed = os.path.join(work, "durable-own.txt")
        with open(listed, "w") as f: f.writelines(lines)
        return process, port, listed

    def start_reference():
        port = run["free_port"]()
        path = os.path.join(work, "durable-reference.sqlite")
        process = subprocess.Popen([os.path.join(build, "reference_durable"), "-p", str(port), "-d", path, "-b", str(state),
                                    "-a", str(answer), "-j", str(journal), "-n", str(connections), "-t", "2"],
                                   stdout=subprocess.PIPE, text=True)
        lines = [process.stdout.readline() for _ in range(connections)]
        listed = os.path.join(work, "durable-reference.txt")
        with open(listed, "w") as f: f.writelines(lines)
        run["first_200"](port)
        return process, port, listed

    def start_fixed():
        port = run["free_port"]()
        process = subprocess.Popen([os.path.join(build, "baseline"), str(port), str(answer), "2"], stdout=subprocess.PIPE, text=True)
        process.stdout.readline()
        return process, port, os.path.join(work, "durable-own.txt")

    servers["durable (ours)"] = start_own()
    if os.path.exists(os.path.join(build, "reference_durable")):
        servers["durable (reference)"] = start_reference()
    servers["fixed"] = start_fixed()
    processes = [servers[name][0] for name in servers if name != "coordinatord"]

    try:
        result = {"sizes": sizes, "quiet": rounds(run, servers, connections, options, False),
                  "hog": rounds(run, servers, connections, options, True)}
        result["open"] = open_loop(run, servers, "coordinatord", "durable (ours)", result["quiet"], connections, options)
    finally:
        stop(processes)
        server.stop()
    result["postgresql"] = measure_postgresql(run, work, options, sizes, connections)
    return result


def rounds(run, servers, connections, options, hog):
    """Alternated rounds over `servers` (name → (process, port, sessions file), or a callable that
    measures one round itself); medians per server. With `hog`, two busy loops run meanwhile."""
    hogs = [subprocess.Popen(["python3", "-c", "while True: pass"]) for _ in range(2)] if hog else []
    runs = {name: [] for name in servers}
    try:
        for round_number in range(options.rounds):
            names = list(servers)
            names = names[round_number % len(names):] + names[:round_number % len(names)]
            for name in names:
                if callable(servers[name]):
                    runs[name].append(servers[name]())
                    continue
                process, port, listed = servers[name]
                runs[name].append(wrk(run, process.pid, port, listed, connections, options.seconds))
    finally:
        for h in hogs: h.kill(); h.wait()
    median = lambda values: statistics.median(values) if None not in values else None
    return {name: {key: median([r[key] for r in results]) for key in results[0]} for name, results in runs.items()}


def open_loop(run, servers, ours, durable, quiet, connections, options):
    """Open loop at half the rate `ours` reached (closed loop, `quiet`), on `ours` and on `durable`
    at that same rate (bench/loadgen.c, latency from each request's scheduled time): the median p99
    of each over alternated rounds. (One round each read a stall that met one side alone as the
    ratio: once on PostgreSQL coordinatord's p99 was 82 ms, 9.5 times the baseline's just after.)"""
    rate = max(1, int(quiet[ours]["rps"] / 2))
    rounds = {ours: [], durable: []}
    for round_number in range(options.rounds):
        for name in ((ours, durable) if round_number % 2 == 0 else (durable, ours)):
            process, port, listed = servers[name]
            rounds[name].append(run["loadgen"]("navigate", port, connections, options.seconds, 1, listed, 0, 0,
                                               server_pid=process.pid, rate=rate))
    result = {"rate": rate}
    for name, measured in rounds.items():
        result[name] = {"p99_ms": statistics.median(m["p99_ms"] for m in measured),
                        "non2xx": sum(m["non2xx"] for m in measured)}
    return result


def show_open_loop(result, ours, durable):
    open_loop = result["open"]
    print(f"open loop at half {ours}'s rate ({open_loop['rate']:,}/s) on both: p99 {open_loop[ours]['p99_ms']:.2f} ms ÷ "
          f"{durable}'s {open_loop[durable]['p99_ms']:.2f} ms = {open_loop[ours]['p99_ms'] / max(open_loop[durable]['p99_ms'], 1e-6):.2f} "
          f"(target ≤ 1.5; non-2xx {open_loop[ours]['non2xx'] + open_loop[durable]['non2xx']})")


def stop(processes):
    for process in processes:
        process.send_signal(signal.SIGTERM)
        try: process.wait(timeout=10)
        except subprocess.TimeoutExpired: process.kill()


def measure_postgresql(run, work, options, sizes, connections):
    """The same rounds on a throw-away PostgreSQL cluster: coordinatord on it, our durable
    baseline on it (`-DDURABLE_PG`, with and without the journal's bytes: the reference has no
    journal), the reference's (when present), and `pgbench -N` (simple update, 16 clients)."""
    build, root = run["BUILD"], run["ROOT"]
    include = "-I" + subprocess.check_output(["pg_config", "--includedir"], text=True).strip()
    flags = subprocess.check_output(["pkg-config", "--cflags", "--libs", "libmicrohttpd"], text=True).split()
    subprocess.check_call(["gcc", "-O2", "-DDURABLE_PG", "-o", os.path.join(build, "durable_baseline_pg"),
                           os.path.join(root, "bench", "durable_baseline.c"), include, "-lpq", "-lpthread", *flags])
    reference = os.path.join(SHARED, "durable_baseline_pg.c")
    if os.path.exists(reference):
        subprocess.check_call(["gcc", "-O2", "-o", os.path.join(build, "reference_durable_pg"), reference, include,
                               "-lpq", "-lpthread", *flags])
    cluster = run["Postgres"](work)
    processes, servers = [], {}
    try:
        server = run["Server"](cluster.database("durable_coordinatord"))
        listed = os.path.join(work, "durable-pg-coordinatord.txt")
        run["signed_out_sessions"](server.base, connections, listed)
        servers["coordinatord (PostgreSQL)"] = (server.process, server.port, listed)

        def start(name, command):
            port = run["free_port"]()
            process = subprocess.Popen([part.replace("PORT", str(port)) for part in command], stdout=subprocess.PIPE, text=True)
            lines = [process.stdout.readline() for _ in range(connections)]
            path = os.path.join(work, name.replace(" ", "-") + ".txt")
            with open(path, "w") as f: f.writelines(lines)
            run["first_200"](port)
            processes.append(process)
            servers[name] = (process, port, path)

        own = os.path.join(build, "durable_baseline_pg")
        for name, journal in (("durable PG (ours)", sizes["journal"]), ("durable PG (ours, no journal)", 0)):
            start(name, [own, "PORT", cluster.database(name.split("(")[1].rstrip(")").replace(", ", "_").replace(" ", "_")),
                         str(connections), str(sizes["state"]), str(sizes["answer"]), str(journal), "2"])
        if os.path.exists(reference):
            start("durable PG (reference)", [os.path.join(build, "reference_durable_pg"), "-p", "PORT", "-d",
                                             cluster.database("reference"), "-b", str(sizes["state"]), "-a", str(sizes["answer"]),
                                             "-n", str(connections), "-t", "2"])
        servers["pgbench -N"] = pgbench(cluster, options, connections)
        quiet = rounds(run, servers, connections, options, False)
        return {"quiet": quiet, "hog": rounds(run, servers, connections, options, True),
                "open": open_loop(run, servers, "coordinatord (PostgreSQL)", "durable PG (ours)", quiet, connections, options)}
    finally:
        stop(processes)
        if "coordinatord (PostgreSQL)" in servers: server.stop()
        cluster.stop()


def pgbench(cluster, options, connections):
    """A round of `pgbench -N` (simple update, one durable transaction each) on a database of its own."""
    common = ["-h", "127.0.0.1", "-p", str(cluster.port), "-U", "postgres"]
    cluster.run("createdb", *common, "pgbench_n")
    cluster.run("pgbench", *common, "-i", "-s", "1", "-q", "pgbench_n")

    def measure():
        output = cluster.run("pgbench", *common, "-N", "-n", "-c", str(connections), "-j", "2", "-T", str(options.seconds),
                             "pgbench_n", capture=True)
        tps = float(output.split("tps = ")[1].split()[0])
        return {"rps": tps, "cpu_us": None, "p50_ms": None, "p99_ms": None, "refused": 0}
    return measure


def wrk(run, pid, port, listed, connections, seconds):
    before = run["cpu_seconds"](pid)
    output = subprocess.check_output(
        ["wrk", "-t", str(connections), "-c", str(connections), "-d", f"{seconds}s", "--latency",
         "-s", os.path.join(run["ROOT"], "bench", "toggle.lua"), f"http://127.0.0.1:{port}"],
        text=True, env=dict(os.environ, SESSIONS_FILE=listed))
    after = run["cpu_seconds"](pid)
    requests = int(next(line for line in output.splitlines() if "requests in" in line).split()[0])
    rate = float(next(line for line in output.splitlines() if line.startswith("Requests/sec")).split()[1])
    last = next(line for line in output.splitlines() if line.startswith("refused")).split()
    cpu = (after[0] - before[0] + after[1] - before[1]) * 1e6 / max(1, requests)
    return {"rps": rate, "cpu_us": cpu, "p50_ms": int(last[3]) / 1000, "p99_ms": int(last[5]) / 1000, "refused": int(last[1])}


def show(result, options):
    sizes = result["sizes"]
    print(f"\n## The toggle load beside durable C baselines (wrk, 16 connections, {options.rounds} rounds of {options.seconds} s, medians)")
    print(f"sizes matched to coordinatord: answer {sizes['answer']} B, stored state {sizes['state']} B, journal entry {sizes['journal']} B")
    for label in ("quiet", "hog"):
        rows = result[label]
        own = rows["durable (ours)"]
        print(f"\n{label}:" if label == "quiet" else "\nbeside a CPU hog (two busy loops):")
        print("| server | events/s | ÷ durable | CPU µs/event | ÷ durable | p50 ms | p99 ms | ÷ durable | refused |")
        print("|---|---|---|---|---|---|---|---|---|")
        for name, r in rows.items():
            print(f"| {name} | {r['rps']:,.0f} | {r['rps'] / own['rps']:.2f} | {r['cpu_us']:.1f} | {r['cpu_us'] / own['cpu_us']:.2f}× "
                  f"| {r['p50_ms']:.2f} | {r['p99_ms']:.2f} | {r['p99_ms'] / max(own['p99_ms'], 1e-6):.2f}× | {r['refused']:.0f} |")
        if "durable (reference)" in rows:
            reference = rows["durable (reference)"]
            print(f"ours ÷ reference: events/s {own['rps'] / reference['rps']:.2f}, CPU {own['cpu_us'] / reference['cpu_us']:.2f} (must agree within 10 %)")
    show_open_loop(result, "coordinatord", "durable (ours)")
    show_postgresql(result["postgresql"])
    quiet, hog = result["quiet"], result["hog"]
    ratio = lambda rows: rows["coordinatord"]["rps"] / rows["durable (ours)"]["rps"]
    print(f"\ncoordinatord ÷ durable, events/s: quiet {ratio(quiet):.2f}, beside the hog {ratio(hog):.2f} "
          f"({ratio(hog) / ratio(quiet):.2f} of quiet; target: within 20 %)")


def show_postgresql(result):
    print("\n## The same on PostgreSQL (a throw-away cluster, fsync and synchronous_commit on; CPU: the server process only)")
    for label in ("quiet", "hog"):
        rows = result[label]
        own = rows["durable PG (ours)"]
        print(f"\n{label}:" if label == "quiet" else "\nbeside a CPU hog (two busy loops):")
        print("| server | events/s | ÷ durable PG | ÷ pgbench -N | CPU µs/event | p50 ms | p99 ms | ÷ durable PG | refused |")
        print("|---|---|---|---|---|---|---|---|---|")
        bench = rows["pgbench -N"]["rps"]
        show = lambda value, form: "—" if value is None else format(value, form)
        for name, r in rows.items():
            p99 = None if r["p99_ms"] is None else r["p99_ms"] / max(own["p99_ms"], 1e-6)
            print(f"| {name} | {r['rps']:,.0f} | {r['rps'] / own['rps']:.2f} | {r['rps'] / bench:.2f} | {show(r['cpu_us'], '.1f')} "
                  f"| {show(r['p50_ms'], '.2f')} | {show(r['p99_ms'], '.2f')} | {show(p99, '.2f')} | {r['refused']:.0f} |")
        if "durable PG (reference)" in rows:
            plain, reference = rows["durable PG (ours, no journal)"], rows["durable PG (reference)"]
            print(f"ours (no journal, as the reference) ÷ reference: events/s {plain['rps'] / reference['rps']:.2f} (must agree within 10 %)")
    show_open_loop(result, "coordinatord (PostgreSQL)", "durable PG (ours)")
    ratio = lambda rows: rows["coordinatord (PostgreSQL)"]["rps"] / rows["durable PG (ours)"]["rps"]
    print(f"\ncoordinatord ÷ durable PG, events/s: quiet {ratio(result['quiet']):.2f} (target ≥ 0.6), beside the hog "
          f"{ratio(result['hog']):.2f} ({ratio(result['hog']) / ratio(result['quiet']):.2f} of quiet; target: within 20 %); "
          f"÷ pgbench -N {result['quiet']['coordinatord (PostgreSQL)']['rps'] / result['quiet']['pgbench -N']['rps']:.2f} (target ≥ 2)")
