#!/usr/bin/env python3
"""The Windows build under Wine: a UCI session as a GUI would hold it.

    python3 .ci/windows_smoke.py target/x86_64-pc-windows-gnu/release/ladya.exe SYZYGY_DIR

Checks `uci`, `isready`, `go depth 10`, `go movetime 1000` ended early by `stop`,
`Threads 2`, a `SyzygyPath` of two folders separated by ';' whose tables are really probed
(a tablebase score and `tbhits` in K+Q v K), and `quit`. Fails on a missing answer, an
illegal move or a hang.

Wine 8 (Debian 12) lacks `ProcessPrng` of bcryptprimitives.dll, which Rust's standard
library imports on Windows: a stub DLL built with mingw beside the .exe supplies it for
the test (it is never shipped; real Windows has the function since Windows 10).

Wine runs in a prefix of its own under the test's folder, made first by `wineboot` with a
time limit and without the Mono and Gecko installers (which a new prefix otherwise offers to
fetch), and its server is stopped at the end: every call to wine has a time limit, and no
wine process outlives the test.
"""

import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

STUB = r"""
#include <windows.h>
typedef BOOLEAN (WINAPI *RtlGenRandomFn)(PVOID, ULONG);
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    static RtlGenRandomFn gen;
    if (!gen) gen = (RtlGenRandomFn)GetProcAddress(LoadLibraryA("advapi32.dll"), "SystemFunction036");
    while (len > 0) {
        ULONG chunk = len > 0x7fffffff ? 0x7fffffff : (ULONG)len;
        if (!gen(data, chunk)) return FALSE;
        data += chunk; len -= chunk;
    }
    return TRUE;
}
"""


# Set by main: the environment every wine command runs in (its own prefix).
WINE_ENV = {}


def wine_run(args, timeout, what):
    """A wine tool run to its end within `timeout` seconds (its output), or the test fails."""
    try:
        return subprocess.run(args, capture_output=True, text=True, check=True, timeout=timeout,
                              env=WINE_ENV, stdin=subprocess.DEVNULL).stdout
    except subprocess.TimeoutExpired:
        stop_wine()
        sys.exit(f"windows smoke test: {what} did not finish within {timeout} s")
    except subprocess.CalledProcessError as e:
        stop_wine()
        sys.exit(f"windows smoke test: {what} failed (exit {e.returncode}): {e.stderr[-500:]}")


def stop_wine():
    """Ends every process of the test's prefix (the server and the services it started)."""
    try:
        subprocess.run(["wineserver", "-k"], env=WINE_ENV, timeout=30,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    except (subprocess.TimeoutExpired, OSError):
        pass


class Engine:
    def __init__(self, cmd, cwd):
        self.p = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, env=WINE_ENV)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.seen = []

    def _read(self):
        for line in self.p.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, text):
        self.p.stdin.write(text + "\n")
        self.p.stdin.flush()

    def expect(self, pred, timeout, what):
        end = time.time() + timeout
        while time.time() < end:
            try:
                line = self.lines.get(timeout=max(0.01, end - time.time()))
            except queue.Empty:
                break
            if line is None:
                break
            self.seen.append(line)
            if pred(line):
                return line
        self.p.kill()
        stop_wine()
        sys.exit(f"windows smoke test: no {what} within {timeout} s; last lines:\n" +
                 "\n".join(self.seen[-15:]))


def winpath(path):
    return wine_run(["winepath", "-w", str(path)], 60, "winepath").strip()


def main():
    exe, syzygy = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    work = Path(tempfile.mkdtemp())
    shutil.copy(exe, work / "ladya.exe")
    (work / "stub.c").write_text(STUB)
    subprocess.run(["x86_64-w64-mingw32-gcc", "-shared", "-o", str(work / "bcryptprimitives.dll"),
                    str(work / "stub.c")], check=True, timeout=120)
    empty = work / "no tables here"
    empty.mkdir()
    WINE_ENV.update(os.environ, WINEDEBUG="-all", WINEPREFIX=str(work / "prefix"),
                    WINEDLLOVERRIDES="mscoree,mshtml=")
    WINE_ENV.pop("DISPLAY", None)
    started = time.time()
    wine_run(["wineboot", "--init"], 300, "wineboot (the new prefix)")
    print(f"windows smoke test: wine prefix made in {time.time() - started:.1f} s")
    e = Engine(["wine", str(work / "ladya.exe")], work)
    e.send("uci")
    e.expect(lambda l: l == "uciok", 180, "uciok")
    e.send("setoption name Threads value 2")
    e.send(f"setoption name SyzygyPath value {winpath(syzygy)};{winpath(empty)}")
    e.expect(lambda l: "found" in l and "tablebases" in l, 60, "tablebase report")
    e.send("isready")
    e.expect(lambda l: l == "readyok", 30, "readyok")
    e.send("position startpos")
    e.send("go depth 10")
    best = e.expect(lambda l: l.startswith("bestmove"), 120, "bestmove for go depth 10")
    assert best.split()[1] in {"e2e4", "d2d4", "g1f3", "c2c4", "b1c3", "e2e3", "d2d3", "g2g3", "c2c3",
                               "b2b3", "a2a3", "h2h3", "f2f4", "b1a3", "g1h3", "a2a4", "b2b4",
                               "f2f3", "g2g4", "h2h4"}, best
    e.send("position startpos moves e2e4")
    started = time.time()
    e.send("go movetime 1000")
    e.expect(lambda l: l.startswith("info depth"), 30, "info for go movetime")
    e.send("stop")
    e.expect(lambda l: l.startswith("bestmove"), 10, "bestmove after stop")
    if time.time() - started > 5:
        sys.exit("windows smoke test: go movetime 1000 with stop took over 5 s")
    e.send("position fen 8/8/8/4k3/8/8/8/KQ6 w - - 0 1")
    e.send("go depth 8")
    tb = e.expect(lambda l: l.startswith("info depth 8"), 60, "depth 8 in K+Q v K")
    e.expect(lambda l: l.startswith("bestmove"), 60, "bestmove in K+Q v K")
    words = tb.split()
    score = int(words[words.index("score") + 2]) if "cp" in words else None
    if "tbhits" not in words or (score is not None and score < 10_000):
        sys.exit(f"windows smoke test: the tables were not probed in K+Q v K: {tb}")
    e.send("quit")
    try:
        e.p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        e.p.kill()
        stop_wine()
        sys.exit("windows smoke test: no exit after quit")
    stop_wine()
    shutil.rmtree(work, ignore_errors=True)
    print(f"windows smoke test: passed under wine (K+Q v K: {' '.join(words[words.index('score'):words.index('score') + 3])}, "
          f"tbhits {words[words.index('tbhits') + 1]})")


if __name__ == "__main__":
    main()
