#!/usr/bin/env python3
"""What an engine's static evaluation leaves unexplained, against candidate
terms (chess).

Reads labelled positions (`FEN [LABEL]` lines, such as
`bench/label_positions.py` writes), asks the engine for its static
evaluation of each (the UCI `eval` command's `info string static
evaluation`), turns each label into centipawns through the logistic scale
(`--scale`, the `k` of `varc tune`), and fits what the evaluation misses
(the label's centipawns less the evaluation, both from White's side) by
least squares to candidate terms computed with python-chess: Stockfish's
classical terms that a generic evaluation might lack (pinned pieces,
safe checks and attackers of the king's squares by kind, restricted
squares, threats on weak pieces, hanging pieces, pieces that could move
off a line with a discovered check, minor pieces behind pawns).

Each term counts, per side, what the side has or suffers as named (its
own pinned officers, its pieces the enemy threatens, the enemy's safe
checks against its king, the squares it attacks but does not hold
strongly where the enemy attacks too, ...), for the side to move (`stm_`)
and the other (`opp_`) apart, White's count less Black's: a negative
figure says the evaluation should take more off a side for it. Rare
terms (a small spread) give unsteady figures below 20,000 positions. It prints, per term, its spread, its
correlation with what is left unexplained and the centipawns per unit a
fit of that term alone gives; then the fit of all of them together. A
term with a large figure of the same sign for both sides is a candidate;
the test is then `varc tune --positions` with the term written, whose
validation loss says whether the evaluation gains by it (a term the
regression favours can still worsen the fit once the evaluation's own
terms move with it: see the README's thirty-first session paragraph).

    python3 bench/eval_residual.py chess.epd --engine "ENGINE uci" --positions 30000

Positions where the evaluation passes 600 centipawns are left out
(material decides those). Needs numpy and python-chess
(`pip install numpy chess`).
"""

import argparse
import math
import re
import subprocess
import sys

try:
    import chess
    import numpy as np
except ImportError as error:
    sys.exit(f"eval_residual: {error} (pip install numpy chess)")

VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9,
          chess.KING: 0}
OFFICERS = (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)
NAMES = {chess.KNIGHT: "n", chess.BISHOP: "b", chess.ROOK: "r", chess.QUEEN: "q"}


def read_positions(path, count):
    try:
        lines = [line for line in open(path) if line.strip() and not line.startswith("#")]
    except OSError as error:
        sys.exit(f"eval_residual: cannot read {path}: {error}")
    step = max(1, len(lines) // count)
    rows = []
    for line in lines[::step][:count]:
        fen, _, label = line.rpartition(" [")
        try:
            rows.append((fen.strip(), float(label.strip(" ]\n"))))
        except ValueError:
            continue
    return rows


def evaluations(command, fens):
    script = ["uci"]
    for fen in fens:
        script += [f"position fen {fen}", "eval"]
    script.append("quit")
    try:
        out = subprocess.run(command.split(), input="\n".join(script) + "\n",
                             capture_output=True, text=True, timeout=3600).stdout
    except (OSError, subprocess.SubprocessError) as error:
        sys.exit(f"eval_residual: cannot run `{command}`: {error}")
    values = [int(m.group(1)) for m in re.finditer(r"static evaluation (-?\d+)", out)]
    if len(values) != len(fens):
        sys.exit(f"eval_residual: {len(values)} evaluations for {len(fens)} positions")
    return values


def attack_maps(board):
    """Per colour: every square its pieces attack, by piece type, and how
    many of its pieces attack each square."""
    attacked = {color: chess.SquareSet() for color in chess.COLORS}
    by_type = {color: {t: chess.SquareSet() for t in chess.PIECE_TYPES} for color in chess.COLORS}
    count = {color: [0] * 64 for color in chess.COLORS}
    for square, piece in board.piece_map().items():
        targets = board.attacks(square)
        attacked[piece.color] |= targets
        by_type[piece.color][piece.piece_type] |= targets
        for target in targets:
            count[piece.color][target] += 1
    return attacked, by_type, count


def terms(board):
    attacked, by_type, count = attack_maps(board)
    every = chess.SquareSet(chess.BB_ALL)
    out = {}
    for us in chess.COLORS:
        them = not us
        sign = 1 if us == chess.WHITE else -1
        prefix = "stm_" if us == board.turn else "opp_"
        king = board.king(us)
        if king is None:
            continue

        def add(name, value):
            out[prefix + name] = out.get(prefix + name, 0) + sign * value

        # The side's own pieces pinned to its king.
        officers = chess.SquareSet()
        for piece_type in OFFICERS:
            officers |= board.pieces(piece_type, us)
        add("pinned_officer", sum(1 for s in officers if board.is_pinned(us, s)))
        add("pinned_pawn", sum(1 for s in board.pieces(chess.PAWN, us) if board.is_pinned(us, s)))
        # The enemy's threats on the side's pieces (Stockfish's weak pieces:
        # attacked, not defended by a pawn nor twice against fewer than two).
        strong = by_type[us][chess.PAWN] | chess.SquareSet(
            [s for s in range(64) if count[us][s] >= 2 and count[them][s] < 2])
        own = chess.SquareSet(board.occupied_co[us]) - board.pieces(chess.KING, us)
        weak = own & attacked[them] - strong
        minors = by_type[them][chess.KNIGHT] | by_type[them][chess.BISHOP]
        add("threatened_by_minor", sum(VALUES[board.piece_type_at(s)]
                                       for s in ((own - board.pieces(chess.PAWN, us)) | weak) & minors))
        add("threatened_by_rook", sum(VALUES[board.piece_type_at(s)] for s in weak & by_type[them][chess.ROOK]))
        add("threatened_by_king", len(weak & by_type[them][chess.KING]))
        undefended = every - attacked[us]
        twice = chess.SquareSet([s for s in range(64) if count[them][s] >= 2])
        add("hanging", len(weak & (undefended | ((own - board.pieces(chess.PAWN, us)) & twice))))
        add("restricted", len(attacked[us] & attacked[them] - strong))
        add("queen_attacked_by_lesser", len(board.pieces(chess.QUEEN, us) & (
            by_type[them][chess.PAWN] | minors | by_type[them][chess.ROOK])))
        # The king's squares and checks.
        ring = chess.SquareSet(chess.BB_KING_ATTACKS[king]) | chess.SquareSet.from_square(king)
        for piece_type in OFFICERS:
            add("ring_attackers_" + NAMES[piece_type],
                sum(1 for s in board.pieces(piece_type, them) if board.attacks(s) & ring))
        safe = every - attacked[us] - chess.SquareSet(board.occupied_co[them])
        for piece_type in OFFICERS:
            if not board.pieces(piece_type, them):
                continue
            probe = chess.Board(None)
            probe.set_piece_at(king, chess.Piece(piece_type, us))
            for s in chess.SquareSet(board.occupied):
                if s != king:
                    probe.set_piece_at(s, chess.Piece(chess.PAWN, board.color_at(s)))
            checks = probe.attacks(king) & by_type[them][piece_type] & safe
            add("safe_check_" + NAMES[piece_type], int(bool(checks)))
        # Enemy pieces that could move off a line with a discovered check.
        discovered = 0
        for s in chess.SquareSet(board.occupied_co[them]) - board.pieces(chess.KING, them):
            without = board.copy(stack=False)
            without.remove_piece_at(s)
            if without.is_attacked_by(them, king) and not board.is_attacked_by(them, king):
                discovered += 1
        add("discovered", discovered)
        ahead = 8 if us == chess.WHITE else -8
        add("minor_behind_pawn", sum(
            1 for s in board.pieces(chess.KNIGHT, us) | board.pieces(chess.BISHOP, us)
            if 0 <= s + ahead < 64 and board.piece_type_at(s + ahead) == chess.PAWN))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("positions_file")
    parser.add_argument("--engine", required=True, help='the engine, e.g. "ENGINE uci"')
    parser.add_argument("--positions", type=int, default=20000,
                        help="how many positions to read, spread over the file")
    parser.add_argument("--scale", type=float, default=0.0063,
                        help="the logistic scale k: win chances per centipawn")
    args = parser.parse_args()
    rows = read_positions(args.positions_file, args.positions)
    values = evaluations(args.engine, [fen for fen, _ in rows])
    features, missed = [], []
    for (fen, label), value in zip(rows, values):
        if abs(value) > 600:
            continue
        try:
            board = chess.Board(fen)
        except ValueError:
            continue
        label = min(max(label, 0.01), 0.99)
        white = value if board.turn == chess.WHITE else -value
        features.append(terms(board))
        missed.append(math.log(label / (1 - label)) / args.scale - white)
    if not features:
        sys.exit("eval_residual: no positions")
    names = sorted({name for row in features for name in row})
    matrix = np.array([[row.get(name, 0) for name in names] for row in features], float)
    missed = np.array(missed)
    print(f"{len(missed)} positions; what the evaluation leaves unexplained: "
          f"{missed.std():.1f} cp (spread)")
    print(f"{'term':30s} {'spread':>7s} {'corr':>7s} {'cp/unit':>8s}")
    for index, name in enumerate(names):
        column = matrix[:, index]
        if column.std() == 0:
            continue
        correlation = np.corrcoef(column, missed)[0, 1]
        print(f"{name:30s} {column.std():7.2f} {correlation:+7.3f} "
              f"{correlation * missed.std() / column.std():+8.1f}")
    design = np.c_[matrix, np.ones(len(missed))]
    coefficients, *_ = np.linalg.lstsq(design, missed, rcond=None)
    print(f"all together: {(missed - design @ coefficients).std():.1f} cp left; per unit:")
    for name, coefficient in zip(names, coefficients):
        print(f"  {name:28s} {coefficient:+7.1f}")


if __name__ == "__main__":
    main()
