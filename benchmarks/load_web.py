"""Load test of the bidding table on loopback: many concurrent tables bidding for a while.

Starts ``bidbox serve`` (one uvicorn process, a fresh SQLite store) on a free port, then
runs ``--tables`` client threads, each with its own session (httpx client with its own
cookie jar). Each thread deals a table, bids until the auction ends (the person's call is
Pass with probability 0.6, otherwise one of the four cheapest legal bids), and deals
again, until ``--seconds`` have passed. Every answer must be 2xx: any other status, or a
transport error, is counted and makes the exit status non-zero.

Reported: requests, errors, and for ``POST /api/tables/{id}/calls`` (the person's call,
the robots' replies and the explanation of the whole auction) the p50/p95 latency and the
p95 time per robot call (the request's latency divided by the robots' calls it made).
The reference, in the same run, is the same work done in this process with no HTTP and no
concurrency (``Table.make_call`` and ``Table.explanation``, one table at a time, with the
clients' policy for the person's calls): the ratio says what serving 50 tables at once
from one server process costs each of them.

    .venv/bin/python benchmarks/load_web.py                # 50 tables, 60 s
    .venv/bin/python benchmarks/load_web.py --tables 10 --seconds 20
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import numpy as np


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def person_call(state: dict[str, Any], rng: random.Random) -> str:
    legal = state["legal_calls"]
    bids = [c for c in legal if c not in ("P", "X", "XX")]
    if rng.random() < 0.6 or not bids:
        return "P"
    return rng.choice(bids[:4])


class Results:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.requests = 0
        self.errors: list[str] = []
        self.call_latency: list[float] = []
        self.per_robot_call: list[float] = []
        self.auctions = 0  # auctions bid to the end


def client_loop(base: str, stop: float, seed: int, out: Results) -> None:
    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=300) as http:
        while time.monotonic() < stop:
            try:
                answer = http.post("/api/tables", json={"seed": rng.randrange(2**31),
                                                        "seat": rng.choice("NESW")})
                with out.lock:
                    out.requests += 1
                if answer.status_code != 201:
                    with out.lock:
                        out.errors.append(f"POST /api/tables {answer.status_code} "
                                          f"{answer.text[:200]}")
                    continue
                state = answer.json()
                while not state["ended"] and time.monotonic() < stop:
                    before = len(state["calls"])
                    call = person_call(state, rng)
                    started = time.perf_counter()
                    answer = http.post(f"/api/tables/{state['id']}/calls", json={"call": call})
                    took = time.perf_counter() - started
                    with out.lock:
                        out.requests += 1
                    if answer.status_code != 200:
                        with out.lock:
                            out.errors.append(f"POST calls {answer.status_code} "
                                              f"{answer.text[:200]}")
                        break
                    state = answer.json()
                    robots = len(state["calls"]) - before - 1
                    with out.lock:
                        out.call_latency.append(took)
                        if robots > 0:
                            out.per_robot_call.append(took / robots)
                if state["ended"]:
                    with out.lock:
                        out.auctions += 1
            except httpx.HTTPError as err:
                with out.lock:
                    out.errors.append(f"{type(err).__name__}: {err}")


def reference(auctions: int) -> tuple[float, float]:
    """(median seconds per person's call, median per robot call) done in this process,
    one table at a time, with the clients' policy for the person's calls."""
    from bidbox.web.table import PERSON, TableRequest, new_table

    rng = random.Random(12345)
    request_times: list[float] = []
    robot_times: list[float] = []
    for k in range(auctions):
        table = new_table(TableRequest(seed=k, seat=rng.choice("NESW")))
        while not table.auction().is_ended:
            state = table.state({})
            before = len(table.calls)
            started = time.perf_counter()
            table.make_call(person_call(state, rng))
            table.explanation()
            took = time.perf_counter() - started
            request_times.append(took)
            robots = sum(1 for c in table.calls[before:] if c["by"] != PERSON)
            if robots:
                robot_times.append(took / robots)
    return float(np.median(request_times)), float(np.median(robot_times))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="concurrent tables (50)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to bid (60)")
    parser.add_argument("--reference-auctions", type=int, default=20,
                        help="auctions replayed in-process for the reference (20)")
    parser.add_argument("--json", metavar="PATH", help="also write the numbers as JSON")
    args = parser.parse_args()

    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "load.sqlite"
        server = subprocess.Popen([sys.executable, "-m", "bidbox", "serve", "--port",
                                   str(port), "--db", str(db)], stderr=subprocess.PIPE,
                                  text=True)
        try:
            base = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while True:
                try:
                    httpx.get(base + "/api/systems", timeout=5).raise_for_status()
                    break
                except httpx.HTTPError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        print("the server did not start", file=sys.stderr)
                        return 2
                    time.sleep(0.2)
            httpx.post(base + "/api/tables", json={"seed": 0}, timeout=120)  # warm-up
            results = Results()
            stop = time.monotonic() + args.seconds
            threads = [threading.Thread(target=client_loop, args=(base, stop, k, results))
                       for k in range(args.tables)]
            started = time.monotonic()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            wall = time.monotonic() - started
        finally:
            server.terminate()
            server.wait(timeout=30)

    latency = np.asarray(results.call_latency)
    per_robot = np.asarray(results.per_robot_call)
    ref_request, ref_robot = reference(args.reference_auctions)
    numbers = {
        "tables": args.tables, "seconds": round(wall, 1), "requests": results.requests,
        "errors": len(results.errors), "calls": int(latency.size),
        "finished_auctions": results.auctions,
        "call_p50_s": round(float(np.percentile(latency, 50)), 3) if latency.size else None,
        "call_p95_s": round(float(np.percentile(latency, 95)), 3) if latency.size else None,
        "robot_call_p95_s": (round(float(np.percentile(per_robot, 95)), 3)
                             if per_robot.size else None),
        "reference_call_median_s": round(ref_request, 4),
        "reference_robot_call_median_s": round(ref_robot, 4),
    }
    if latency.size:
        numbers["ratio_call_p95_to_reference"] = round(numbers["call_p95_s"] / ref_request, 1)
    for key, value in numbers.items():
        print(f"{key:32} {value}")
    for error in results.errors[:10]:
        print("error:", error)
    if args.json:
        Path(args.json).write_text(json.dumps(numbers, indent=2))
    return 1 if results.errors else 0


if __name__ == "__main__":
    sys.exit(main())
