#!/usr/bin/env python3
"""Search speed: nodes per second in `go depth N`, varc against Fairy-Stockfish.

Runs ten chess positions through up to three UCI engines, one thread each:
Fairy-Stockfish, the engine that `varc build variants/chess.rules` compiles,
and the reference interpreter (`varc uci variants/chess.rules`). Every search
starts from a cleared hash (`ucinewgame`). The engines take turns position by
position, so that a burst of load from other jobs falls on all of them alike;
the figures worth quoting are therefore the ratios, each taken per position
and summarised by its median.

A search's speed is nodes / time from the last `info` line that has both; the
wall-clock time from `go` to `bestmove` is the fallback (and is shown too).
On Linux the engine process's CPU time over the search is read from /proc as
well, and the ratios are also given in nodes per CPU second: on a machine
shared with other jobs, an engine that waits for a core loses wall-clock
time but not CPU time.
Depths differ per engine and per position (Fairy-Stockfish searches far
deeper in the same time, and a pawn endgame far deeper than a middlegame). By
default each engine gets, on each position, the first depth whose search takes
at least --min-seconds (tried from depth 1 up, each from a cleared hash); the
depth flags fix one depth for an engine instead.

bench/search-speed.sh installs what this needs and passes the paths.
"""

import argparse
import json
import os
import queue
import shlex
import statistics
import subprocess
import sys
import threading
import time

import chess

POSITIONS = [
    ("start", chess.STARTING_FEN),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("cpw3-rook-endgame", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    ("cpw4-promotions", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"),
    ("cpw5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"),
    ("cpw6-italian", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"),
    # 1.d4 d5 2.c4 e6 3.Nc3 Nf6 4.Bg5 Be7 5.e3 O-O 6.Nf3 Nbd7
    ("queens-gambit", "r1bq1rk1/pppnbppp/4pn2/3p2B1/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 3 7"),
    # Najdorf, English attack: castled on opposite wings after 10.O-O-O Nbd7
    ("najdorf", "r2q1rk1/1p1nbppp/p2pbn2/4p3/4P3/1NN1BP2/PPPQ2PP/2KR1B1R w - - 5 11"),
    ("lucena", "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1"),
    # Fine's problem 70: locked pawns, a transposition table's test.
    ("fine70-pawn-endgame", "8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1"),
]

# Set on every engine that offers them; the others are left at their defaults.
OPTIONS = {"Threads": "1", "Hash": "16", "UCI_Variant": "chess"}


class EngineError(Exception):
    """An engine died, hung past the timeout or answered nonsense."""


class Engine:
    """One UCI engine process, read line by line with timeouts."""

    def __init__(self, name, command):
        self.name = name
        self.command = command
        self.process = None

    def start(self, timeout):
        self.process = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.lines = queue.Queue()
        self.stderr_lines = []
        threading.Thread(target=self._pump, args=(self.process.stdout, self.lines.put), daemon=True).start()
        self.stderr_reader = threading.Thread(target=self._pump, args=(self.process.stderr, self._keep_stderr),
                                              daemon=True)
        self.stderr_reader.start()
        self.send("uci")
        offered = {line.split()[2] for line in self.read_until("uciok", timeout) if line.startswith("option name ")}
        for name, value in OPTIONS.items():
            if name in offered:
                self.send(f"setoption name {name} value {value}")
        self.sync(timeout)

    @staticmethod
    def _pump(stream, put):
        """Hands each line of `stream` to `put`, then None at its end."""
        for line in stream:
            put(line.rstrip("\n"))
        put(None)

    def _keep_stderr(self, line):
        """Keeps the first few lines of standard error: that is where an error message is."""
        if line and line.strip() and len(self.stderr_lines) < 5:
            self.stderr_lines.append(line)

    def send(self, line):
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EngineError(f"{self.name} died{self._exit_note()}") from None

    def read_until(self, first_word, timeout):
        """The lines up to and including the first that starts with `first_word`."""
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise EngineError(f"{self.name}: no '{first_word}' within {timeout:g} s") from None
            if line is None:
                raise EngineError(f"{self.name} died before '{first_word}'{self._exit_note()}")
            seen.append(line)
            if line.split()[:1] == [first_word]:
                return seen

    def cpu_seconds(self):
        """CPU time the engine process has used (all threads), or None where
        /proc does not tell: on a machine shared with other jobs this is a
        steadier clock than the wall-clock time engines report."""
        try:
            with open(f"/proc/{self.process.pid}/stat") as file:
                fields = file.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return None

    def sync(self, timeout):
        self.send("isready")
        self.read_until("readyok", timeout)

    def _exit_note(self):
        try:
            code = self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = "none yet"
        self.stderr_reader.join(timeout=1)
        stderr = " | ".join(self.stderr_lines)
        return f" (exit code {code}{'; stderr: ' + stderr if stderr else ''})"

    def close(self):
        if self.process and self.process.poll() is None:
            try:
                self.send("quit")
                self.process.wait(timeout=2)
            except (EngineError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        self.process = None


def info_fields(line):
    """`info ... nodes 123 time 45 pv e2e4 e7e5` -> {'nodes': '123', ..., 'pv': ['e2e4', 'e7e5']}"""
    words = line.split()[1:]
    fields = {}
    for i, word in enumerate(words):
        if word == "pv":
            fields["pv"] = words[i + 1 :]
            break
        if word in ("depth", "nodes", "time", "nps") and i + 1 < len(words):
            fields[word] = words[i + 1]
    return fields


def search(engine, fen, depth, timeout):
    """One `go depth` from a cleared hash: nodes, seconds, nps and oddities seen."""
    try:
        if engine.process is None:
            engine.start(timeout)
        engine.send("ucinewgame")
        engine.send(f"position fen {fen}")
        engine.sync(timeout)
        cpu_before = engine.cpu_seconds()
        started = time.monotonic()
        engine.send(f"go depth {depth}")
        lines = engine.read_until("bestmove", timeout)
        wall = time.monotonic() - started
        cpu_after = engine.cpu_seconds()
    except EngineError as error:
        engine.close()  # a dead or hung engine is started afresh for the next position
        raise EngineError(f"{error} (go depth {depth})") from None

    infos = [info_fields(line) for line in lines if line.startswith("info ") and not line.startswith("info string")]
    timed = [info for info in infos if "nodes" in info and "time" in info]
    notes = [line for line in lines if line.startswith("info string")]
    if not timed:
        raise EngineError(f"{engine.name}: no info line with nodes and time")
    last = timed[-1]
    nodes = int(last["nodes"])
    seconds = int(last["time"]) / 1000
    if seconds <= 0:
        seconds = wall
        notes.append("time 0 in the last info line: wall-clock time used")
    if "nps" not in last:
        notes.append("no nps in the info lines")
    if int(last.get("depth", depth)) != depth:
        notes.append(f"last info line is depth {last.get('depth')}, not {depth}")

    best = lines[-1].split()[1] if len(lines[-1].split()) > 1 else "(none)"
    board = chess.Board(fen)
    if best not in {move.uci() for move in board.legal_moves}:
        notes.append(f"bestmove {best} is not legal here")
    pv = next((info["pv"] for info in reversed(infos) if info.get("pv")), [])
    if pv and pv[0] != best:
        notes.append(f"bestmove {best} is not the last pv's first move {pv[0]}")
    cpu = cpu_after - cpu_before if cpu_before is not None and cpu_after is not None else None
    return {"depth": depth, "nodes": nodes, "seconds": seconds, "wall_seconds": wall,
            "cpu_seconds": cpu, "nps": nodes / seconds,
            "cpu_nps": nodes / cpu if cpu else None, "bestmove": best, "notes": notes}


def measure(engine, fen, fixed_depth, args):
    """`go depth` at `fixed_depth`, or else at the first depth whose search takes --min-seconds."""
    if fixed_depth:
        return search(engine, fen, fixed_depth, args.timeout)
    depth = 1
    while True:
        result = search(engine, fen, depth, args.timeout)
        if result["seconds"] >= args.min_seconds or depth >= args.max_depth:
            return result
        depth += 1


def read_fens(path):
    """(name, FEN) per line of `path`: blank lines and lines starting with
    `#` are skipped; a name may follow the FEN after ` # `."""
    positions = []
    with open(path, encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fen, _, name = line.partition(" # ")
            positions.append((name.strip() or f"line{number}", fen.strip()))
    return positions


def median_ratio(results, numerator, denominator, key="nps"):
    ratios = [r[numerator][key] / r[denominator][key] for r in results.values()
              if numerator in r and denominator in r and r[numerator][key] and r[denominator][key]]
    return statistics.median(ratios) if ratios else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--varc-engine", metavar="PATH", help="the binary `varc build variants/chess.rules` printed")
    parser.add_argument("--interpreter", metavar='"CMD ..."', help='e.g. "target/release/varc uci variants/chess.rules"')
    parser.add_argument("--fairy-stockfish", metavar="PATH", help="e.g. /usr/games/fairy-stockfish")
    parser.add_argument("--varc-depth", type=int, metavar="N", help="fixed depth for the compiled engine")
    parser.add_argument("--interpreter-depth", type=int, metavar="N", help="fixed depth for the interpreter")
    parser.add_argument("--fairy-stockfish-depth", type=int, metavar="N", help="fixed depth for Fairy-Stockfish")
    parser.add_argument("--min-seconds", type=float, default=0.5,
                        help="without a fixed depth: deepen until a search takes this long (default 0.5)")
    parser.add_argument("--max-depth", type=int, default=40, help="without a fixed depth: the deepest try (default 40)")
    parser.add_argument("--timeout", type=float, default=120, help="seconds allowed for one search (default 120)")
    parser.add_argument("--positions", help="comma-separated names to run (default: all ten)")
    parser.add_argument("--fens", metavar="FILE",
                        help="run these positions instead of the ten: one FEN a line, a name after ' # ' if wanted")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON ('-': standard output)")
    args = parser.parse_args()

    engines = [
        (Engine("fairy-stockfish", [args.fairy_stockfish]) if args.fairy_stockfish else None, args.fairy_stockfish_depth),
        (Engine("varc-compiled", [args.varc_engine, "uci"]) if args.varc_engine else None, args.varc_depth),
        (Engine("varc-interpreter", shlex.split(args.interpreter)) if args.interpreter else None, args.interpreter_depth),
    ]
    engines = [(engine, depth) for engine, depth in engines if engine]
    if not engines:
        parser.error("name at least one engine")
    positions = POSITIONS
    if args.fens:
        try:
            positions = read_fens(args.fens)
        except (OSError, UnicodeDecodeError) as error:
            parser.error(f"{args.fens}: {error}")
        if not positions:
            parser.error(f"{args.fens}: no positions")
    if args.positions:
        wanted = args.positions.split(",")
        named = positions
        positions = [(name, fen) for name, fen in named if name in wanted]
        if len(positions) != len(wanted):
            parser.error(f"positions are: {', '.join(name for name, _ in named)}")

    out = sys.stderr if args.json == "-" else sys.stdout
    results, errors = {}, []
    for name, fen in positions:
        print(f"\n{name}: {fen}", file=out)
        print(f"  {'engine':<17} {'depth':>5} {'nodes':>12} {'seconds':>8} {'wall s':>7} {'cpu s':>7} {'nps':>11} "
              f"{'cpu nps':>11}", file=out)
        results[name] = {}
        for engine, depth in engines:
            try:
                result = measure(engine, fen, depth, args)
            except (EngineError, OSError) as error:
                errors.append(f"{name}: {error}")
                print(f"  {engine.name:<17} error: {error}", file=out)
                continue
            results[name][engine.name] = result
            cpu = f"{result['cpu_seconds']:>7.2f}" if result["cpu_seconds"] is not None else f"{'-':>7}"
            cpu_nps = f"{result['cpu_nps']:>11.0f}" if result["cpu_nps"] else f"{'-':>11}"
            print(f"  {engine.name:<17} {result['depth']:>5} {result['nodes']:>12} {result['seconds']:>8.3f} "
                  f"{result['wall_seconds']:>7.3f} {cpu} {result['nps']:>11.0f} {cpu_nps}", file=out, flush=True)
            for note in result["notes"]:
                print(f"  {'':<17} note: {note}", file=out)
    for engine, _ in engines:
        engine.close()

    summary = {"median_nps": {}, "ratios": {}}
    print("\nsummary", file=out)
    for engine, _ in engines:
        speeds = [r[engine.name]["nps"] for r in results.values() if engine.name in r]
        if speeds:
            summary["median_nps"][engine.name] = statistics.median(speeds)
            print(f"  median nps {engine.name:<17} {statistics.median(speeds):>11.0f}", file=out)
    for numerator, denominator in [("varc-compiled", "fairy-stockfish"), ("varc-compiled", "varc-interpreter")]:
        ratio = median_ratio(results, numerator, denominator)
        if ratio is not None:
            summary["ratios"][f"{numerator}/{denominator}"] = ratio
            print(f"  {numerator} / {denominator}: {ratio:.2f} (median of per-position nps ratios)", file=out)
        cpu_ratio = median_ratio(results, numerator, denominator, "cpu_nps")
        if cpu_ratio is not None:
            summary["ratios"][f"{numerator}/{denominator} (CPU time)"] = cpu_ratio
            print(f"  {numerator} / {denominator}: {cpu_ratio:.2f} (the same, nodes per CPU second)", file=out)
    fixed = {engine.name for engine, depth in engines if depth is not None}
    if {"varc-compiled", "fairy-stockfish"} <= fixed:
        ratio = median_ratio(results, "varc-compiled", "fairy-stockfish", "nodes")
        if ratio is not None:
            summary["ratios"]["varc-compiled/fairy-stockfish (nodes to depth)"] = ratio
            print(f"  varc-compiled / fairy-stockfish: {ratio:.2f} (median of per-position nodes, "
                  "each at its fixed depth)", file=out)
    for error in errors:
        print(f"  error: {error}", file=out)

    if args.json:
        document = {"positions": dict(positions), "results": results, "summary": summary, "errors": errors}
        text = json.dumps(document, indent=2)
        if args.json == "-":
            print(text)
        else:
            with open(args.json, "w") as file:
                file.write(text + "\n")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
