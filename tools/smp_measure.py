#!/usr/bin/env python3
"""Lazy SMP measurements: nps with 1 and 2 threads under `go movetime`
from 10 positions, the depth each reaches, and the `stop` -> `bestmove` latency with 1,
2 and 8 threads (a `go infinite` stopped after 50-300 ms, N times).

Also the time to reach `go depth 20` from the same positions with 1 and 2 threads.

Usage: tools/smp_measure.py [--engine target/release/ladya] [--movetime 10000]
           [--positions 10] [--depth 20] [--stops 100] [--only nps|latency]
Run it on an otherwise idle machine: the numbers are about scheduling.
"""
import argparse
import os
import random
import statistics
import subprocess
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R1BQ1RK1 w - - 0 8",
    "2r3k1/pp3ppp/2n1b3/3p4/3P4/2PB1N2/P4PPP/4R1K1 w - - 0 20",
    "r2q1rk1/1b1nbppp/p2ppn2/1p6/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 0 12",
    "8/5pk1/6p1/3R4/7P/6P1/r4PK1/8 w - - 0 40",
    "r1b2rk1/2q1bppp/p2ppn2/1p6/3NP3/1BN1B3/PPP1QPPP/R4RK1 w - - 0 13",
    "3r2k1/p4ppp/1p6/2p5/2P1n3/1P2P3/P4PPP/3RK2R w K - 0 22",
    "r4rk1/pp1nqppp/2p1pn2/3p4/2PP4/1QN1PN2/PP3PPP/R4RK1 w - - 0 11",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 30",
]


class Engine:
    def __init__(self, path, threads):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send(f"setoption name Threads value {threads}")
        self.send("setoption name Hash value 64")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("the engine ended")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    def quit(self):
        self.send("quit")
        self.p.wait()


def search(path, threads, movetime, positions):
    e = Engine(path, threads)
    nps, depths = [], []
    for fen in FENS[:positions]:
        e.send("ucinewgame")
        e.send(f"position fen {fen}")
        e.send("isready")
        e.wait("readyok")
        e.send(f"go movetime {movetime}")
        info = [l for l in e.wait("bestmove") if l.startswith("info depth") and " nps " in l][-1]
        w = info.split()
        nps.append(int(w[w.index("nps") + 1]))
        depths.append(int(w[w.index("depth") + 1]))
    e.quit()
    return nps, depths


def time_to_depth(path, threads, depth, positions):
    """Seconds from `go depth D` to `bestmove`, per position."""
    e = Engine(path, threads)
    times = []
    for fen in FENS[:positions]:
        e.send("ucinewgame")
        e.send(f"position fen {fen}")
        e.send("isready")
        e.wait("readyok")
        t = time.perf_counter()
        e.send(f"go depth {depth}")
        e.wait("bestmove")
        times.append(time.perf_counter() - t)
    e.quit()
    return times


def stops(path, threads, count):
    e = Engine(path, threads)
    e.send("position startpos")
    rng = random.Random(1)
    latencies = []
    for _ in range(count):
        e.send("go infinite")
        time.sleep(rng.uniform(0.05, 0.3))
        t = time.perf_counter()
        e.send("stop")
        e.wait("bestmove")
        latencies.append((time.perf_counter() - t) * 1000)
    e.quit()
    return latencies


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "ladya"))
    p.add_argument("--movetime", type=int, default=10000)
    p.add_argument("--positions", type=int, default=10)
    p.add_argument("--stops", type=int, default=100)
    p.add_argument("--depth", type=int, default=20)
    p.add_argument("--only", choices=["nps", "latency"])
    a = p.parse_args()
    if a.only != "latency":
        n1, d1 = search(a.engine, 1, a.movetime, a.positions)
        n2, d2 = search(a.engine, 2, a.movetime, a.positions)
        ratios = [b / x for x, b in zip(n1, n2)]
        print(f"nps 1 thread: median {statistics.median(n1):.0f}; 2 threads: median "
              f"{statistics.median(n2):.0f}; ratio per position median "
              f"{statistics.median(ratios):.2f} (min {min(ratios):.2f}, max {max(ratios):.2f})")
        print(f"depth after {a.movetime} ms: 1 thread {d1}, 2 threads {d2}")
        print("nps ratio per position: " + ", ".join(f"{r:.2f}" for r in ratios))
        t1 = time_to_depth(a.engine, 1, a.depth, a.positions)
        t2 = time_to_depth(a.engine, 2, a.depth, a.positions)
        print(f"time to depth {a.depth}: 1 thread {sum(t1):.1f} s in all (median "
              f"{statistics.median(t1):.2f} s), 2 threads {sum(t2):.1f} s (median "
              f"{statistics.median(t2):.2f} s); per position 1T/2T median "
              f"{statistics.median([x / y for x, y in zip(t1, t2)]):.2f}")
    if a.only != "nps":
        for threads in (1, 2, 8):
            lat = stops(a.engine, threads, a.stops)
            print(f"stop -> bestmove, {threads} threads, {len(lat)} searches: median "
                  f"{statistics.median(lat):.2f} ms, max {max(lat):.2f} ms", flush=True)


if __name__ == "__main__":
    main()
