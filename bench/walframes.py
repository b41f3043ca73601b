#!/usr/bin/env python3
"""What each SQLite commit writes to the log, by table (repeatable however loaded the machine).

Starts the release server on a new SQLite file, signs `--sessions` sessions in and drives the
navigation load of `make bench` for `--seconds`; meanwhile it copies the write-ahead log every
half second. Each copy is read frame by frame (a frame is one page, 4 KiB here, written at a
commit; a frame with a database size ends its commit), commits seen in several copies are counted
once, and each frame's page is named by its table or index (`dbstat`). Prints the frames per commit,
and per commit for each table: what a commit costs the disk, since every frame is written and
synced before the commit's callers are answered.
usage: bench/walframes.py [--server-arguments "--journal off"] [--sessions N] [--seconds S]
"""
import argparse, collections, os, shutil, sqlite3, struct, sys, tempfile, threading, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run

HEADER, FRAME_HEADER = 32, 24


def commits(log):
    """The commits in one copy of the log, as (salts, index of the commit's last frame, its pages)."""
    data = open(log, "rb").read()
    if len(data) < HEADER: return []
    page_size, salts = struct.unpack(">I", data[8:12])[0], data[16:24]
    found, pages, offset, index = [], [], HEADER, 0
    while offset + FRAME_HEADER + page_size <= len(data) and data[offset + 8:offset + 16] == salts:
        page, database_size = struct.unpack(">II", data[offset:offset + 8])
        pages.append(page)
        index += 1
        if database_size:
            found.append(((salts, index), pages))
            pages = []
        offset += FRAME_HEADER + page_size
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--seconds", type=int, default=6)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--server-arguments", default="", help="more arguments of `serve`, e.g. \"--journal off\"")
    options = parser.parse_args()
    run.compile_tools()
    work = tempfile.mkdtemp(prefix="coordinatord-walframes-")
    database = os.path.join(work, "db.sqlite")
    server = run.Server(database, *options.server_arguments.split())
    try:
        sessions = os.path.join(work, "sessions.txt")
        post_id, user_id = run.prepare_sessions(server.base, options.sessions, sessions)
        drive = lambda seconds: run.loadgen("navigate", server.port, options.connections, seconds, 1, sessions,
                                            post_id, user_id)
        drive(2)
        load = threading.Thread(target=drive, args=(options.seconds,))
        load.start()
        copies = []
        for index in range(options.seconds * 2 - 2):
            time.sleep(0.5)
            copies.append(os.path.join(work, f"log-{index}"))
            shutil.copy(database + "-wal", copies[-1])
        load.join()
        with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
            owners = dict(connection.execute("SELECT pageno, name FROM dbstat"))
    finally:
        server.stop()
    seen, frames = set(), collections.Counter()
    for copy in copies:
        for key, pages in commits(copy):
            if key in seen: continue
            seen.add(key)
            for page in pages: frames[owners.get(page, "(in no table or index now)")] += 1
    shutil.rmtree(work, ignore_errors=True)
    count = max(1, len(seen))
    print(f"{len(seen)} commits, {sum(frames.values()) / count:.2f} frames (a page each) per commit:")
    for owner, total in frames.most_common():
        print(f"  {owner:32} {total / count:.2f}")


if __name__ == "__main__":
    main()
