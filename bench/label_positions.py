#!/usr/bin/env python3
"""Labels the quiet positions of recorded chess games with another engine's
judgement, for `varc tune --positions`.

Game results are a noisy label: one blunder at move 60 relabels every
position before it. A stronger engine's score of each position is a far
sharper one, so a few hundred games teach the evaluation what thousands of
results would. This reads games (PGN, such as `match --pgn` writes), keeps
the positions after the opening where the side to move is not in check and
the move played neither captures nor promotes (as `varc tune` does with
results), each once, or reads positions of any variant that `match --fens`
wrote, and asks a UCI engine (Fairy-Stockfish by default) for
its score at a fixed depth. The score becomes White's expected score,
`1 / (1 + 10^(-cp / 400))` (a mate is 1 or 0); `varc tune` fits its own
scale to it. Each output line is `FEN [LABEL]`.

With `--static-share W` the label is `W` times the expected score of the
engine's static evaluation (Fairy-Stockfish's `eval` command) plus the
rest of the search's: the static evaluation carries no tactics, so it
teaches the positional terms what the depth-8 score's tactics blur (the
bundled weights since the eleventh session: `W` 0.5). `--keep-labels`
takes the search's part from the labels of the `--fens` lines instead of
searching again, which relabels a file in a minute; where those labels
are blends already, `--kept-share W` says so (W of each its static
evaluation's), and the search's part is recovered from them as
`(label - W static) / (1 - W)`, so a file labelled half static can be
reblended with another share without searching again.

    python3 bench/label_positions.py games.pgn --depth 8 --jobs 2 -o labelled.epd
    varc tune variants/chess.rules --positions labelled.epd --squares -o chess.weights
    # any variant the engine plays: positions from `match --fens`
    python3 bench/label_positions.py --fens capa.fens --variant capablanca -o capa.epd
    # half the static evaluation, half the labels a file already has
    python3 bench/label_positions.py --fens chess.epd --keep-labels --static-share 0.5 -o blend.epd
    # a quarter static, from a file labelled half static
    python3 bench/label_positions.py --fens half.epd --keep-labels --kept-share 0.5 --static-share 0.25 -o quarter.epd

The PGN reader is python-chess's, so games given as PGN must be chess.
"""

import argparse
import multiprocessing
import subprocess
import sys

import chess
import chess.pgn


def quiet_positions(paths, skip_plies, every, seen):
    """The FENs of the quiet positions of the chess games in `paths`, each
    once (by their first four fields, remembered in `seen`), every
    `every`-th of each game after its first `skip_plies` plies."""
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            while True:
                game = chess.pgn.read_game(handle)
                if game is None:
                    break
                board = game.board()
                for ply, move in enumerate(game.mainline_moves()):
                    quiet = not board.is_check() and not board.is_capture(move) and move.promotion is None
                    if ply >= skip_plies and quiet and ply % every == 0:
                        fen = board.fen()
                        key = " ".join(fen.split()[:4])
                        if key not in seen:
                            seen.add(key)
                            yield fen
                    board.push(move)


def listed_positions(paths, every, seen, labels):
    """The FENs of files of `FEN [LABEL]` lines (`match --fens` writes
    them, for any variant), each once, every `every`-th line; their
    labels, where they have one, go into `labels`."""
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            for number, line in enumerate(handle):
                fen, _, rest = line.partition("[")
                fen = fen.strip()
                key = " ".join(fen.split()[:4])
                if fen and not fen.startswith("#") and number % every == 0 and key not in seen:
                    seen.add(key)
                    try:
                        labels[fen] = float(rest.strip().rstrip("]"))
                    except ValueError:
                        pass
                    yield fen


def expected_score(white_cp=None, white_mate=None):
    """White's expected score for a centipawn score or a mate in N (both
    from White's side)."""
    if white_mate is not None:
        return 1.0 if white_mate > 0 else 0.0
    return 1.0 / (1.0 + 10.0 ** (-white_cp / 400.0))


class Labeller:
    """One UCI engine process, spoken to directly (python-chess's engine
    layer costs more per position than a shallow search)."""

    def __init__(self, command, depth, variant, static_share=0.0, kept=None, kept_share=0.0):
        self.depth = depth
        self.static_share = static_share
        self.kept = kept
        self.kept_share = kept_share
        self.process = subprocess.Popen(
            [command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.send("uci")
        self.wait_for("uciok")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 16")
        if variant != "chess":
            self.send(f"setoption name UCI_Variant value {variant}")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line):
        self.process.stdin.write(line + "\n")

    def wait_for(self, word):
        for line in self.process.stdout:
            if line.split()[:1] == [word]:
                return
        raise RuntimeError(f"the engine ended before `{word}`")

    def score(self, fen):
        """White's expected score of `fen`: the search's (or the kept
        label, less its static part by `kept_share`), blended with the
        static evaluation's by `static_share`."""
        kept = self.kept.get(fen) if self.kept is not None else None
        static = None
        if self.static_share > 0.0 or (kept is not None and self.kept_share > 0.0):
            static = self.static_score(fen)
        if kept is None:
            searched = self.search_score(fen)
        elif static is not None and self.kept_share > 0.0:
            searched = min(1.0, max(0.0, (kept - self.kept_share * static) / (1.0 - self.kept_share)))
        else:
            searched = kept
        if static is None or self.static_share <= 0.0:
            return searched
        return self.static_share * static + (1.0 - self.static_share) * searched

    def static_score(self, fen):
        """White's expected score by the engine's static evaluation
        (Fairy-Stockfish's `eval`: `Total evaluation: X (white side)`), or
        None where it gives none (in check)."""
        self.send(f"position fen {fen}")
        self.send("eval")
        for line in self.process.stdout:
            if line.startswith("Total evaluation:"):
                value = line.split()[2]
                if value == "none":
                    return None
                return expected_score(white_cp=float(value) * 100.0)
        raise RuntimeError(f"the engine ended while evaluating {fen}")

    def search_score(self, fen):
        """White's expected score of `fen` by a search to `depth`."""
        self.send(f"position fen {fen}")
        self.send(f"go depth {self.depth}")
        cp, mate = 0, None
        for line in self.process.stdout:
            words = line.split()
            if words[:1] == ["bestmove"]:
                break
            if words[:1] == ["info"] and "score" in words:
                at = words.index("score")
                kind, value = words[at + 1], int(words[at + 2])
                cp, mate = (value, None) if kind == "cp" else (0, value)
        else:
            raise RuntimeError(f"the engine ended while searching {fen}")
        white = fen.split()[1] == "w"
        if mate is not None:
            return expected_score(white_mate=mate if white else -mate)
        return expected_score(white_cp=cp if white else -cp)


LABELLER = None


def start_engine(command, depth, variant, static_share, kept, kept_share):
    global LABELLER
    LABELLER = Labeller(command, depth, variant, static_share, kept, kept_share)


def label(fen):
    return fen, LABELLER.score(fen)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="PGN files of chess games")
    parser.add_argument("--fens", nargs="+", default=[], help="files of `FEN [LABEL]` lines (match --fens), any variant")
    parser.add_argument("--variant", default="chess", help="the engine's UCI_Variant")
    parser.add_argument("-o", "--out", required=True, help="where to write the labelled positions")
    parser.add_argument("--engine", default="/usr/games/fairy-stockfish", help="the UCI engine that labels")
    parser.add_argument("--depth", type=int, default=8, help="its search depth per position")
    parser.add_argument("--skip-plies", type=int, default=8, help="plies of each game left out (the opening)")
    parser.add_argument("--every", type=int, default=1, help="keep every N-th ply of a game only")
    parser.add_argument("--limit", type=int, default=0, help="at most this many positions (0: all)")
    parser.add_argument("--jobs", type=int, default=1, help="engine processes")
    parser.add_argument(
        "--static-share", type=float, default=0.0, help="the static evaluation's share of each label (0 to 1)"
    )
    parser.add_argument(
        "--keep-labels", action="store_true", help="take the search's part from the --fens lines' labels"
    )
    parser.add_argument(
        "--kept-share",
        type=float,
        default=0.0,
        help="the static evaluation's share of the kept labels (0 to below 1): recover their search's part",
    )
    args = parser.parse_args()
    if not 0.0 <= args.static_share <= 1.0:
        sys.exit("error: --static-share must be from 0 to 1")
    if not 0.0 <= args.kept_share < 1.0:
        sys.exit("error: --kept-share must be from 0 to below 1")
    if args.kept_share > 0.0 and not args.keep_labels:
        sys.exit("error: --kept-share needs --keep-labels")

    seen = set()
    labels = {}
    every = max(1, args.every)
    fens = list(quiet_positions(args.games, args.skip_plies, every, seen))
    fens += list(listed_positions(args.fens, every, seen, labels))
    kept = labels if args.keep_labels else None
    if args.limit:
        fens = fens[: args.limit]
    if not fens:
        sys.exit("error: no quiet position in the games")
    initargs = (args.engine, args.depth, args.variant, args.static_share, kept, args.kept_share)
    how = "the input's labels" if kept is not None else f"a search to depth {args.depth}"
    if kept is not None and args.kept_share > 0.0:
        how += f" without their static {args.kept_share:g}"
    if args.static_share > 0.0:
        how += f", {args.static_share:g} of each label its static evaluation's"
    print(f"labelling {len(fens)} positions ({how})", file=sys.stderr)
    with open(args.out, "w", encoding="utf-8") as out, multiprocessing.Pool(
        args.jobs, initializer=start_engine, initargs=initargs
    ) as pool:
        out.write(f"# {len(fens)} quiet positions labelled by {args.engine} ({how})\n")
        for done, (fen, score) in enumerate(pool.imap(label, fens, chunksize=64), 1):
            out.write(f"{fen} [{score:.4f}]\n")
            if done % 5000 == 0:
                print(f"{done}/{len(fens)}", file=sys.stderr)


if __name__ == "__main__":
    main()
