#!/usr/bin/env python3
"""Where an engine's static evaluation departs from Fairy-Stockfish's, term
by term (chess and the variants whose `eval` trace Fairy-Stockfish prints).

Reads labelled positions (`FEN [LABEL]` lines, such as
`bench/label_positions.py` writes), takes every n-th of them, asks both
engines for their static evaluation (the `eval` command: Fairy-Stockfish's
trace of terms, varc's `info string static evaluation`), and prints:

- how well each evaluation predicts the labels (correlation);
- per Fairy-Stockfish term (Material, Pawns, King safety, Threats, ...),
  interpolated by its phase: its spread, the share of it that the engine's
  evaluation follows (a least-squares fit of the engine's evaluation on
  the terms, over the fit of its evaluation on Fairy-Stockfish's total),
  and how much it lowers the spread of the labels left unexplained by the
  engine's evaluation alone. A term the engine follows little and that
  lowers that spread most is where a new term of ours would gain. Where
  the labels carry Fairy-Stockfish's static evaluation
  (`label_positions.py --static-share`), every term gains a little by
  construction: compare the terms with each other.

Both evaluations are centipawns from White's side; positions where either
passes 600 centipawns are left out (material decides those).

    python3 bench/eval_gap.py chess.epd --engine "ENGINE uci" --positions 20000

Needs numpy and python-chess (`pip install numpy chess`).
"""

import argparse
import math
import subprocess
import sys

TERMS = [
    "Material", "Imbalance", "Pawns", "Knights", "Bishops", "Rooks", "Queens",
    "Mobility", "King safety", "Threats", "Passed", "Space", "Initiative",
]
# Stockfish 11's phase: non-pawn material between these limits. Only
# chess's officers are counted, so in variants with more kinds (Capablanca's
# archbishop and chancellor) the phase leans toward the endgame.
MIDGAME_LIMIT, ENDGAME_LIMIT = 15258, 3915
OFFICER_VALUES = {"n": 781, "b": 825, "r": 1276, "q": 2538}


class Engine:
    def __init__(self, command, variant):
        try:
            self.process = subprocess.Popen(
                command.split(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                text=True, bufsize=1)
        except OSError as error:
            sys.exit(f"eval_gap: cannot start `{command}`: {error}")
        self.ask("uci", "uciok")
        if variant != "chess":
            self.send(f"setoption name UCI_Variant value {variant}")

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def ask(self, line, until):
        self.send(line)
        lines = []
        for reply in self.process.stdout:
            if reply.split()[:1] == [until]:
                return lines
            lines.append(reply)
        sys.exit(f"eval_gap: the engine ended before `{until}`")

    def evaluate(self, fen):
        self.send(f"position fen {fen}")
        self.send("eval")
        return self.ask("isready", "readyok")


def fairy_terms(lines):
    """The trace's terms (middlegame, endgame) and total, in centipawns."""
    terms, total = {}, None
    for line in lines:
        parts = line.split("|")
        if len(parts) == 4 and parts[0].strip() in TERMS:
            middlegame, endgame = parts[3].split()
            terms[parts[0].strip()] = (100 * float(middlegame), 100 * float(endgame))
        elif line.startswith("Total evaluation:") and line.split()[2] != "none":
            total = 100 * float(line.split()[2])
    return (terms, total) if len(terms) == len(TERMS) and total is not None else None


def varc_value(lines, white_to_move):
    for line in lines:
        words = line.split()
        if "static" in words and "evaluation" in words:
            value = int(words[words.index("evaluation") + 1])
            return value if white_to_move else -value
    return None


def phase(fen):
    material = sum(OFFICER_VALUES.get(c.lower(), 0) for c in fen.split()[0])
    material = max(ENDGAME_LIMIT, min(MIDGAME_LIMIT, material))
    return (material - ENDGAME_LIMIT) / (MIDGAME_LIMIT - ENDGAME_LIMIT)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("positions_file")
    parser.add_argument("--engine", required=True, help='the engine, e.g. "ENGINE uci"')
    parser.add_argument("--fairy-stockfish", default="/usr/games/fairy-stockfish")
    parser.add_argument("--variant", default="chess")
    parser.add_argument("--positions", type=int, default=20000,
                        help="how many positions to compare, spread over the file")
    parser.add_argument("--scale", type=float, default=0.0063,
                        help="the labels' logistic scale per centipawn (the weights file's k)")
    args = parser.parse_args()
    try:
        import numpy as np
    except ImportError:
        sys.exit("eval_gap: needs numpy (pip install numpy)")
    try:
        with open(args.positions_file) as file:
            lines = [line for line in file if line.strip() and not line.startswith("#")]
    except OSError as error:
        sys.exit(f"eval_gap: {error}")
    step = max(1, len(lines) // args.positions)
    fairy = Engine(args.fairy_stockfish, args.variant)
    ours = Engine(args.engine, args.variant)
    rows = []
    for line in lines[::step][: args.positions]:
        if " [" not in line:
            continue
        fen, label = line.rsplit(" [", 1)
        fen = fen.strip()
        try:
            label = float(label.strip().rstrip("]"))
        except ValueError:
            continue
        traced = fairy_terms(fairy.evaluate(fen))
        value = varc_value(ours.evaluate(fen), fen.split()[1] == "w")
        if traced is None or value is None:
            continue
        terms, total = traced
        if abs(total) >= 600 or abs(value) >= 600:
            continue
        share = phase(fen)
        row = [terms[t][0] * share + terms[t][1] * (1 - share) for t in TERMS]
        label = min(max(label, 0.02), 0.98)
        rows.append((row, total, value, math.log(label / (1 - label)) / args.scale))
    if len(rows) < 100:
        sys.exit(f"eval_gap: only {len(rows)} positions could be compared")
    terms = np.array([r[0] for r in rows])
    total = np.array([r[1] for r in rows])
    value = np.array([r[2] for r in rows], dtype=float)
    target = np.array([r[3] for r in rows])

    def residual(columns, y):
        matrix = np.c_[columns, np.ones(len(y))]
        fit, *_ = np.linalg.lstsq(matrix, y, rcond=None)
        return fit, (y - matrix @ fit).std()

    print(f"{len(rows)} positions")
    print(f"correlation with the labels: varc {np.corrcoef(target, value)[0, 1]:.4f}, "
          f"Fairy-Stockfish {np.corrcoef(target, total)[0, 1]:.4f}")
    overall, _ = residual(total[:, None], value)
    followed, _ = residual(terms, value)
    _, alone = residual(value[:, None], target)
    print(f"labels left unexplained by varc's evaluation: {alone:.2f} cp (spread)")
    print(f"{'term':<12} {'spread':>7} {'followed':>9} {'gain':>6}")
    for index, name in enumerate(TERMS):
        _, with_term = residual(np.c_[value, terms[:, index]], target)
        print(f"{name:<12} {terms[:, index].std():7.1f} "
              f"{followed[index] / overall[0]:9.2f} {alone - with_term:6.2f}")


if __name__ == "__main__":
    main()
