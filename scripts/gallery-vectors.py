#!/usr/bin/env python3
"""Perft vectors for the gallery, computed by Fairy-Stockfish's Python binding.

For each Fairy-Stockfish variant named on the command line (by default the
gallery's candidates), writes `OUT/NAME.epd`: the start position and
positions reached by seeded random playouts, each with its perft counts
(`FEN ;D1 n ;D2 n ...`), after a `#` header naming the source, pyffish's
version and the seed.

pyffish has no perft: the counts are taken with `pyffish.legal_moves`,
which returns no move where the game has ended by the variant's rules
(extinction, a flag reached, ...). That is the convention of
`varc perft ... --end-rules`, so the counts compare exactly.

Depths: every depth whose count is at most `--limit` (the default tests
check these), then, with `--deep-limit`, the next depths up to that count
(the tests check those only with `VARC_DEEP=1`). The files say which is which
in their header.

    pip install pyffish
    python3 scripts/gallery-vectors.py                      # every candidate
    python3 scripts/gallery-vectors.py shatranj courier     # some
    python3 scripts/gallery-vectors.py --deep-limit 5000000 gardner

The output depends only on the arguments and pyffish's version: moves are
sorted before a random one is picked, and each playout has its own
generator seeded by `SEED:NAME:INDEX`.
"""

import argparse
import os
import random
import sys

import pyffish

# Fairy-Stockfish's built-ins that issue 10 names for the gallery.
CANDIDATES = [
    "capablanca", "gothic", "embassy", "janus", "chancellor", "modern",
    "almost", "amazon", "chigorin", "nightrider", "grasshopper", "newzealand",
    "torpedo", "berolina", "knightmate", "gardner", "losalamos", "tencubed",
    "troitzky", "gustav3", "shatranj", "courier", "extinction", "threekings",
    "breakthrough", "horde", "kingofthehill", "racingkings", "3check",
    "atomic", "antichess", "giveaway", "coregal", "shatar", "shako", "grand",
    "makruk", "cambodian", "sittuyin", "xiangqi", "janggi", "crazyhouse",
    "shogi", "minishogi", "seirawan",
    # Not named by the issue; it needs nothing that xiangqi does not.
    "minixiangqi",
]

# Positions written by hand, after the playouts: what random playouts
# rarely reach (full hands, a promoted piece, a drop that must interpose,
# shogi's forced promotions and mate by a pawn drop).
EXTRA_POSITIONS = {
    "makruk": [
        # Pieces' honour counting (the FEN's limit 16 in place of en
        # passant, ply 10 in place of the halfmove clock): the limit is not
        # passed within the default depths.
        "4k3/8/8/8/8/8/8/R3K3 b - 16 10 30",
        # Board's honour counting, 64 moves.
        "r3k3/8/8/8/8/8/8/R2NK3 w - 128 20 40",
        # A bare king that may take the last pawn (its count starts at once).
        "8/8/8/8/8/2k5/3P4/RR5K b - - 0 1",
        # Promotion to met on the sixth rank, by a step and by a capture.
        "4k3/8/1r6/2P5/8/8/8/4K2R w - - 0 1",
        "4k3/8/8/8/6p1/5R2/8/4K3 b - - 0 1",
    ],
    "cambodian": [
        # First-move letters for a king and a met that may still leap (the
        # met over a piece), and for Black's.
        "3mk3/3p4/8/8/8/4P3/4P3/3KM3 w DEde - 0 1",
        # In check (by a knight): no king leap, though the right stays.
        "4k3/7p/8/8/8/2n5/8/3K4 w D - 0 1",
        # A rook that moves onto the king's file or rank takes its leap,
        # blocked or not (Rd8 behind the pawn, Ra1 along the rank).
        "r3k3/8/8/8/8/3P4/8/3K4 b D - 0 1",
        "4k3/r7/8/8/8/8/8/1P1K4 b D - 0 1",
        # Counting: board's honour with a pawn on the board, and pieces'
        # honour against two rooks.
        "4k3/3p4/8/8/8/8/8/RR2K3 w - - 0 1",
        "1r2k3/8/8/8/8/8/8/RRS1K3 w - - 0 1",
    ],
    "crazyhouse": [
        # Every kind in both hands.
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[QRBNPqrbnp] w KQkq - 2 3",
        # In check along the first rank: knights interpose (pawns may not
        # be dropped there).
        "4k3/8/8/8/8/8/8/r3K3[Nn] w - - 0 1",
        # A promoted queen (`~`): taken, it goes to Black's hand as a pawn.
        "r3k3/8/8/8/8/8/8/Q~3K3[] b - - 0 1",
        # A pawn dropped on its second rank may double-step.
        "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1",
        # In check along the a-file: pawns interpose on ranks 2 to 7.
        "k7/8/8/8/8/8/8/R3K3[Pp] b - - 0 1",
        # Promotions by capture, castling rights, no hands yet.
        "r1b1k2r/1P3ppp/8/8/8/8/5PPP/4K2R[] w Kkq - 0 1",
        "r2qk2r/ppp2ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPP2PPP/R2QK2R[Bb] w KQkq - 0 7",
    ],
    "shogi": [
        # After the bishops are traded (c3c4 g7g6 b2h8+ g9h8): one in each
        # hand, dropped almost anywhere.
        "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL[Bb] w - - 0 3",
        # Every kind in both hands.
        "4k4/9/9/9/9/9/9/9/4K4[RBGSNLPrbgsnlp] w 0 1",
        # P@e8 mates: a legal move, after which the game is over (Black,
        # mated by a pawn drop, wins).
        "3lkl3/9/4G4/9/9/9/9/9/4K4[P] w 0 1",
        # Forced promotions: the pawn and lance onto the last rank, the
        # knights onto the last two.
        "8k/P3L4/2N6/1N7/9/9/9/9/4K4[-] w 0 1",
        # Promoted pieces (`+P`, `+B`); a tokin does not bar a pawn drop on
        # its file, a pawn does.
        "4k4/9/4+P4/9/2+B6/9/2P6/9/4K4[P] w 0 1",
        # A tokin taken goes to the hand as a pawn.
        "4k4/4+P4/9/9/9/9/9/9/4K4[-] b 0 1",
        # A silver in the zone may promote on a move out of it.
        "4k4/9/2S6/9/9/9/9/9/4K4[-] w 0 1",
    ],
    "minishogi": [
        # Every kind in both hands.
        "2k2/5/5/5/2K2[PSGBRpsgbr] w 0 1",
        # P@c4 mates: legal, and the game is over.
        "1rkr1/5/2G2/5/2K2[P] w 0 1",
        # A forced promotion on the last rank.
        "4k/P4/5/5/K4[-] w 0 1",
        # A tokin and a pawn on the board, pawns in both hands.
        "k4/5/+P1P2/5/4K[Pp] w 0 1",
        # A dragon taken goes to the hand as a rook.
        "2k2/2+R2/5/5/2K2[-] b 0 1",
    ],
    "sittuyin": [
        # The setup phase: White has dropped its king, Black drops next;
        # then Black's hand alone is not empty (White moves freely).
        "8/8/4pppp/pppp4/4PPPP/PPPP4/8/3K4[FRRSSNNkfrrssnn] b - - 0 1",
        "8/8/4pppp/pppp4/4PPPP/PPPP4/8/RNSKFSNR[krrssnnf] b - - 0 5",
        "rnskfsnr/8/4pppp/pppp4/4PPPP/PPPP4/8/3K4[FRRSSNN] w - - 0 5",
        # Promotion as a move of its own: the last pawn anywhere, two pawns
        # only on the promotion squares, never attacking a piece or giving
        # check (also by discovery), not while the side has a met.
        "8/8/4k3/8/4P3/8/8/R3K3[] w - - 0 1",
        "8/8/4k3/8/2P1P3/8/8/R3K3[] w - - 0 1",
        "r2k4/8/2P5/3P4/8/8/8/R3K3[] w - - 0 1",
        "4k3/6r1/5P2/4P3/8/8/8/4K3[] w - - 0 1",
        "rnsk1snr/2f5/1pp1ppp1/p2p3p/P2P3P/1PP1PPP1/8/RNSKFSNR[] w - - 0 10",
        # ASEAN counting: a king alone against a rook (16 moves, from 0),
        # started by the capture of the last pawn, and running.
        "k7/8/8/8/8/8/4p3/R3K3[] b - - 0 1",
        "k7/8/8/8/8/8/8/R3K3[] b - 32 6 20",
    ],
    "seirawan": [
        # Both castlings open, with the hawk or the elephant entering the
        # king's square or the rook's; White's hand empty (no gating, no
        # gate letters), Black's full.
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[HEhe] w KQkq - 0 1",
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[he] w KQkq - 0 1",
        # A bishop pinned on its first rank: entering its square would
        # block the pin, but a gating move is legal only when the move
        # without it is.
        "4k3/8/8/8/8/8/8/r2BK3[H] w D - 0 1",
        # The elephant enters behind the knight and gives check.
        "6k1/8/8/8/8/8/8/4K1N1[E] w G - 0 1",
        # Gates left after the king moved (A, H) and a rook that moved.
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R2K3R[HEhe] w AHkq - 2 3",
    ],
    "janggi": [
        # The kings face each other (bikjang): the side to move must part
        # them or pass, and a pass ends the game.
        "r2akabr1/9/1cn3nc1/p1p3p1p/9/9/P1P3P1P/1CN3NC1/9/R2AKABR1 w - - 0 1",
        # Cannons next to cannons: none jumps or takes another.
        "4k4/9/4c4/9/4C4/4c4/2c6/2C1C4/9/3K5 w - - 0 1",
        # The palace's diagonals: rooks, a cannon, the king and an advisor
        # on them, a black rook in White's palace.
        "3ak4/9/9/9/9/9/9/3R1r3/4C4/3K1A3 w - - 0 1",
        # White soldiers in Black's palace, stepping along its diagonals.
        "3a1k3/9/3P1P3/9/9/9/9/9/4A4/4K4 w - - 0 1",
        # In check by a cannon over the palace's centre: no pass.
        "4k4/9/9/9/9/9/9/5c3/4A4/3K5 w - - 0 1",
    ],
}

REPOSITORY = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class OverLimit(Exception):
    """A count passed the limit: the depth is left out."""


def perft_counts(variant, fen, max_depth, limit):
    """perft(1), perft(2), ... from `fen` while the count stays <= limit
    (and at most max_depth). A walk stops as soon as it passes the limit."""
    counts = []
    for depth in range(1, max_depth + 1):
        budget = [limit]
        try:
            count = perft(variant, fen, [], depth, budget)
        except OverLimit:
            break
        counts.append(count)
    return counts


def perft(variant, fen, moves, depth, budget):
    """Leaves `depth` plies below the position `moves` lead to from `fen`;
    `budget[0]` is what may still be counted (OverLimit when it runs out)."""
    legal = pyffish.legal_moves(variant, fen, moves)
    if depth == 1:
        budget[0] -= len(legal)
        if budget[0] < 0:
            raise OverLimit()
        return len(legal)
    total = 0
    for move in legal:
        moves.append(move)
        total += perft(variant, fen, moves, depth - 1, budget)
        moves.pop()
    return total


def playout(variant, start, seed, index, plies):
    """The FEN after `plies` random moves from `start`, or None if the game
    ends on the way or the position is one whose end rules differ between
    engines that treat draws as claims and those that end games at once
    (a draw by move count or insufficient material)."""
    rng = random.Random(f"{seed}:{variant}:{index}")
    moves = []
    for _ in range(plies):
        legal = sorted(pyffish.legal_moves(variant, start, moves))
        if not legal:
            return None
        moves.append(rng.choice(legal))
    fen = pyffish.get_fen(variant, start, moves)
    if not pyffish.legal_moves(variant, fen, []):
        return None
    # Stay clear of the fifty-move rule within the tree and of bare material.
    fields = fen.split()
    if len(fields) >= 2 and fields[-2].isdigit() and int(fields[-2]) > 60:
        return None
    if any(pyffish.has_insufficient_material(variant, fen, [])):
        return None
    return fen


def positions(variant, seed, count):
    start = pyffish.get_fen(variant, pyffish.start_fen(variant), [])
    out = [start]
    index = 0
    while len(out) < count + 1 and index < 50 * (count + 1):
        plies = random.Random(f"{seed}:{variant}:{index}:plies").randint(8, 60)
        fen = playout(variant, start, seed, index, plies)
        index += 1
        if fen is not None and fen not in out:
            out.append(fen)
    return out + [fen for fen in EXTRA_POSITIONS.get(variant, []) if fen not in out]


def write_file(path, variant, seed, limit, deep_limit, max_depth, lines):
    version = ".".join(str(part) for part in pyffish.version())
    with open(path, "w", encoding="utf-8") as out:
        out.write(
            f"# {variant}: perft computed by Fairy-Stockfish's Python binding "
            f"(pyffish {version}), variant \"{variant}\".\n"
            f"# Counted with pyffish.legal_moves, which gives no move where the game "
            f"has ended by the variant's rules\n"
            f"# (compare with varc perft --end-rules). Positions after the first: "
            f"seeded random playouts, seed {seed}.\n"
            f"# Default depths: counts up to {limit}; deeper counts up to "
            f"{deep_limit} (VARC_DEEP=1), depth at most {max_depth}.\n"
            f"# Written by scripts/gallery-vectors.py; do not edit by hand.\n"
        )
        for fen, counts in lines:
            fields = " ".join(f";D{d} {n}" for d, n in enumerate(counts, start=1))
            out.write(f"{fen} {fields}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="*", help="Fairy-Stockfish variant names")
    parser.add_argument("--out", default=os.path.join(REPOSITORY, "tests", "vectors", "gallery"))
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument("--playouts", type=int, default=3, help="positions besides the start")
    parser.add_argument("--limit", type=int, default=50_000, help="largest default count")
    parser.add_argument("--deep-limit", type=int, default=0, help="largest opt-in count")
    parser.add_argument("--max-depth", type=int, default=6)
    args = parser.parse_args()

    known = set(pyffish.variants())
    names = args.variants or CANDIDATES
    os.makedirs(args.out, exist_ok=True)
    for variant in names:
        if variant not in known:
            print(f"{variant}: not a variant of this pyffish, skipped", file=sys.stderr)
            continue
        deep_limit = max(args.limit, args.deep_limit)
        lines = []
        for fen in positions(variant, args.seed, args.playouts):
            counts = perft_counts(variant, fen, args.max_depth, deep_limit)
            lines.append((fen, counts))
        path = os.path.join(args.out, f"{variant}.epd")
        write_file(path, variant, args.seed, args.limit, deep_limit, args.max_depth, lines)
        print(f"{variant}: {len(lines)} positions -> {os.path.relpath(path)}", file=sys.stderr)


if __name__ == "__main__":
    main()
