#!/usr/bin/env python3
"""Instructions per node: an engine's fixed-depth searches counted under
Valgrind's cachegrind, for speed changes too small for the clock.

On a shared or virtual machine, the same binary's nodes per second vary by
a tenth from run to run, more than most speed changes gain. The count of
instructions a search executes does not vary: each engine given runs the
same fixed-depth searches (from a cleared hash, one thread) under
`valgrind --tool=cachegrind --cache-sim=no`, and the script prints its
nodes, its instructions, instructions per node, and the functions that
execute the most of them. Two builds that search the same tree (same
nodes, same moves: the checksum of their best moves) differ only in the
work per node. Instructions are not time (a cache miss costs more than an
addition), so a change is to be confirmed by the clock as well
(`bench/search_speed.py`), but they show which way and by about how much.

Valgrind does not know AVX-512: the engines are to be built for a
processor level it knows, as `bench/search-instructions.sh` does
(x86-64-v3, with line tables for the functions' names).

    bench/search-instructions.sh                     # main's chess engine
    python3 bench/search_instructions.py ENGINE_A ENGINE_B --depth 9
"""

import argparse
import collections
import os
import shutil
import shlex
import subprocess
import sys
import tempfile
import zlib

OPENINGS = os.path.join(os.path.dirname(__file__), "openings", "chess-wide.txt")


def openings(count):
    """The first `count` openings of chess-wide.txt, as lists of moves."""
    lines = []
    with open(OPENINGS) as f:
        for line in f:
            moves = line.split("#")[0].split()
            if moves:
                lines.append(moves)
    return lines[:count]


def search_all(command, positions, depth):
    """Runs `go depth` on every position through the UCI engine `command`;
    returns the nodes of the last `info` lines summed and a checksum of the
    best moves."""
    engine = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )

    def send(line):
        engine.stdin.write(line + "\n")

    def wait_for(prefix):
        while True:
            line = engine.stdout.readline()
            if not line:
                sys.exit(f"{shlex.join(command)}: the engine stopped")
            if line.startswith(prefix):
                return line

    send("uci")
    wait_for("uciok")
    nodes, checksum = 0, 0
    for moves in positions:
        send("ucinewgame")
        send("isready")
        wait_for("readyok")
        send("position startpos moves " + " ".join(moves))
        send(f"go depth {depth}")
        last = None
        while True:
            line = engine.stdout.readline()
            if not line:
                sys.exit(f"{shlex.join(command)}: the engine stopped")
            if line.startswith("info") and " nodes " in line:
                last = line
            if line.startswith("bestmove"):
                break
        if last is None:
            sys.exit(f"{shlex.join(command)}: no info line with nodes")
        words = last.split()
        nodes += int(words[words.index("nodes") + 1])
        checksum = zlib.crc32(line.encode(), checksum)
    send("quit")
    engine.wait()
    return nodes, checksum


def read_counts(path):
    """Total instructions and instructions per function of a cachegrind
    output file."""
    per_function = collections.Counter()
    total = 0
    function = None
    with open(path) as f:
        for line in f:
            if line.startswith("fn="):
                function = line[3:].strip()
            elif line[:1].isdigit():
                count = int(line.split()[1])
                per_function[function] += count
                total += count
    return total, per_function


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("engines", nargs="+", help="engine binaries (run with the argument `uci`)")
    parser.add_argument("--depth", type=int, default=9, help="the depth of each search")
    parser.add_argument("--positions", type=int, default=30, help="openings of chess-wide.txt")
    parser.add_argument("--top", type=int, default=12, help="functions listed per engine")
    parser.add_argument("--keep", metavar="DIR",
                        help="keep each engine's cachegrind output in DIR (for cg_annotate)")
    args = parser.parse_args()

    positions = openings(args.positions)
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for index, engine in enumerate(args.engines):
            out = os.path.join(scratch, f"cachegrind.{index}")
            command = [
                "valgrind", "--tool=cachegrind", "--cache-sim=no",
                f"--cachegrind-out-file={out}", f"--log-file={out}.log",
                engine, "uci",
            ]
            nodes, checksum = search_all(command, positions, args.depth)
            total, per_function = read_counts(out)
            rows.append((engine, nodes, checksum, total))
            if args.keep:
                os.makedirs(args.keep, exist_ok=True)
                shutil.copy(out, os.path.join(args.keep, f"cachegrind.{index}"))
            print(f"\n{engine}: {nodes:,} nodes, {total:,} instructions, "
                  f"{total / max(nodes, 1):,.0f} a node (best moves' checksum {checksum:08x})")
            for function, count in per_function.most_common(args.top):
                print(f"  {100 * count / total:5.2f}%  {function[:100]}")
    print("\n| engine | nodes | instructions | per node | against the first |")
    print("| --- | ---: | ---: | ---: | ---: |")
    first = rows[0][3] / max(rows[0][1], 1)
    for engine, nodes, checksum, total in rows:
        per_node = total / max(nodes, 1)
        print(f"| {engine} | {nodes:,} | {total:,} | {per_node:,.0f} | {per_node / first - 1:+.1%} |")
    if len({(nodes, checksum) for _, nodes, checksum, _ in rows}) > 1:
        print("\nThe engines searched different trees: compare the instructions per node only.")


if __name__ == "__main__":
    main()
