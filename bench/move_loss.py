#!/usr/bin/env python3
"""Where an engine loses its games: each of its moves in recorded chess games
judged by a stronger engine.

A match against Fairy-Stockfish says how much weaker an engine is, not
where. This replays games (PGN, such as `match --pgn` writes) and, at every
move the named player made from the fifth move on, asks a judge (Fairy-
Stockfish by default) for its score of the position at a fixed depth and,
where the judge prefers another move, its score after the move played. The
difference (capped where the position was already decided) is the move's
loss in the judge's centipawns. It prints the average loss per phase
(opening before move 15, then middlegame while more than 16 pieces stand,
then endgame); the loss by the material on the board, counted from move 15
on and from positions the judge held within `--balanced` centipawns of
equal (queens on or off, rooks, minor pieces: which kind of position the
player's games drift away in, and what share of all that loss each kind
holds); and the moves that lost the most from such positions: the mistakes
that decided games, not those made in games already lost.

    VARIANTS=chess bench/strength.sh --pgn games.pgn
    python3 bench/move_loss.py games.pgn more.pgn --player varc --depth 13

A judge's single search is noisy: two moves within a few tens of
centipawns are often equal to a deeper search. The averages and the large
losses are what to read. It needs python-chess (`pip install chess`).
"""

import argparse
import shlex
import sys
from collections import namedtuple

import chess
import chess.engine
import chess.pgn

# A score beyond this is a decided position: losses are capped there.
DECIDED = 1000
MATE = 3000

# One judged move: its phase, its loss, the position before it, the move
# played and the judge's, the judge's scores before and after it, and the
# material on the board (`material`).
Judged = namedtuple("Judged", "phase loss fen played preferred before after material")


def phase(board):
    if board.fullmove_number < 15:
        return "opening"
    return "middlegame" if len(board.piece_map()) > 16 else "endgame"


def material(board):
    """The officers on the board, as `Q R4 m3` (queens on, four rooks,
    three minor pieces) or `- R2 m0` (no queen)."""
    def count(kind):
        return len(board.pieces(kind, chess.WHITE)) + len(board.pieces(kind, chess.BLACK))

    queens = "Q" if count(chess.QUEEN) else "-"
    minors = count(chess.KNIGHT) + count(chess.BISHOP)
    return f"{queens} R{count(chess.ROOK)} m{minors}"


def score(info, color):
    return info["score"].pov(color).score(mate_score=MATE)


def judge_game(game, player, judge, limit):
    """Each move of `player` in `game`, judged ([`Judged`])."""
    if player == game.headers.get("White"):
        color = chess.WHITE
    elif player == game.headers.get("Black"):
        color = chess.BLACK
    else:
        return []
    rows = []
    board = game.board()
    for move in game.mainline_moves():
        if board.turn == color and board.fullmove_number >= 5:
            info = judge.analyse(board, limit)
            before = score(info, color)
            preferred = info.get("pv", [None])[0]
            after = before
            if preferred != move:
                board.push(move)
                after = score(judge.analyse(board, limit), color)
                board.pop()
            loss = 0
            if before < DECIDED:
                loss = max(0, before - min(after, DECIDED))
            rows.append(
                Judged(
                    phase(board),
                    loss,
                    board.fen(),
                    board.san(move),
                    board.san(preferred) if preferred else "?",
                    before,
                    after,
                    material(board),
                )
            )
        board.push(move)
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", nargs="+", help="games, as `match --pgn` writes them")
    parser.add_argument("--player", default="varc", help="the player whose moves are judged")
    parser.add_argument("--judge", default="/usr/games/fairy-stockfish", help="a UCI engine")
    parser.add_argument("--depth", type=int, default=13, help="the judge's depth")
    parser.add_argument("--balanced", type=int, default=150,
                        help="list mistakes made from positions within this many centipawns")
    parser.add_argument("--min-loss", type=int, default=100,
                        help="the smallest loss counted as a mistake and listed")
    parser.add_argument("--top", type=int, default=20, help="how many mistakes to list")
    parser.add_argument("--kinds", type=int, default=12,
                        help="how many kinds of material to list, most moves first")
    args = parser.parse_args()

    try:
        judge = chess.engine.SimpleEngine.popen_uci(shlex.split(args.judge))
    except (OSError, chess.engine.EngineError) as error:
        sys.exit(f"move_loss: cannot start {args.judge}: {error}")
    judge.configure({"Hash": 64})
    limit = chess.engine.Limit(depth=args.depth)
    rows = []
    games = 0
    try:
        for path in args.pgn:
            with open(path, encoding="utf-8") as handle:
                while (game := chess.pgn.read_game(handle)) is not None:
                    judged = judge_game(game, args.player, judge, limit)
                    games += bool(judged)
                    rows.extend(judged)
                    print(f"\r{games} games judged", end="", file=sys.stderr, flush=True)
    except (OSError, ValueError) as error:
        sys.exit(f"move_loss: {error}")
    finally:
        judge.quit()
    print(file=sys.stderr)
    if not rows:
        sys.exit(f"move_loss: no moves of {args.player!r} in {', '.join(args.pgn)}")

    print(f"{games} games, {len(rows)} moves of {args.player}, judged at depth {args.depth}")
    print(f"| phase | moves | average loss (cp) | moves losing {args.min_loss}+ |")
    print("| --- | ---: | ---: | ---: |")
    for name in ("opening", "middlegame", "endgame"):
        losses = [row.loss for row in rows if row.phase == name]
        if losses:
            big = sum(1 for loss in losses if loss >= args.min_loss)
            print(f"| {name} | {len(losses)} | {sum(losses) / len(losses):.1f} | {big} |")
    print_material(rows, args)
    mistakes = [
        row for row in rows if abs(row.before) <= args.balanced and row.loss >= args.min_loss
    ]
    mistakes.sort(key=lambda row: -row.loss)
    print()
    print(f"{len(mistakes)} moves lost {args.min_loss}+ from within {args.balanced} of equal; "
          f"the largest:")
    for row in mistakes[: args.top]:
        print(f"{row.loss:5d} {row.phase:10s} {row.played:7s} (judge: {row.preferred:7s} "
              f"{row.before:+5d} -> {row.after:+5d})  {row.fen}")


def print_material(rows, args):
    """The loss by the material on the board, from move 15 on, from
    positions within `--balanced` of equal."""
    kinds = {}
    for row in rows:
        if row.phase != "opening" and abs(row.before) <= args.balanced:
            kinds.setdefault(row.material, []).append(row.loss)
    total = sum(sum(losses) for losses in kinds.values())
    if not total:
        return
    print()
    print(f"Loss by material from move 15 on, from within {args.balanced} of equal "
          f"(Q: queens on; R: rooks; m: minor pieces):")
    print("| material | moves | average loss (cp) | share of the loss |")
    print("| --- | ---: | ---: | ---: |")
    ranked = sorted(kinds.items(), key=lambda kind: -len(kind[1]))
    for name, losses in ranked[: args.kinds]:
        print(f"| {name} | {len(losses)} | {sum(losses) / len(losses):.1f} | "
              f"{100 * sum(losses) / total:.0f}% |")


if __name__ == "__main__":
    main()
