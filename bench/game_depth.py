#!/usr/bin/env python3
"""Depth in game positions: how deep two UCI engines search at a fixed time
per move, position by position along recorded chess games, grouped by how
many pieces are left.

`bench/search_speed.py` measures nodes to a depth from a cleared hash on
ten positions. A match is different: each search starts from the table the
search before it left, and most positions are middlegames and endgames.
This replays games (PGN, such as `match --pgn` writes) and asks each engine
for `go movetime` at every ply after the opening, keeping its table from one
ply to the next within a game (`ucinewgame` between games), and prints each
engine's mean and median depth per group of positions.

    python3 bench/game_depth.py games.pgn --games 10 \\
        --engine /usr/games/fairy-stockfish --engine "ENGINE uci"

It needs python-chess (`pip install chess`).
"""

import argparse
import shlex
import statistics
import sys

import chess
import chess.engine
import chess.pgn

# Pieces on the board (kings and pawns included), fewest last.
GROUPS = [(25, 32), (19, 24), (13, 18), (2, 12)]


def read_games(path, count):
    games = []
    with open(path, encoding="utf-8") as handle:
        while len(games) < count:
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            games.append(game)
    return games


def depths(command, games, movetime, first_ply, last_ply):
    """(pieces, depth) for every searched position, in game order."""
    engine = chess.engine.SimpleEngine.popen_uci(shlex.split(command))
    try:
        options = {"Hash": 16, "Threads": 1}
        engine.configure({k: v for k, v in options.items() if k in engine.options})
        found = []
        for game in games:
            board = game.board()
            for ply, move in enumerate(game.mainline_moves()):
                board.push(move)
                if ply < first_ply or ply > last_ply:
                    continue
                # The same game object: no `ucinewgame`, the table is kept.
                info = engine.analyse(board, chess.engine.Limit(time=movetime / 1000), game=game)
                found.append((len(board.piece_map()), info.get("depth", 0)))
        return found
    finally:
        engine.quit()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", help="chess games (PGN)")
    parser.add_argument("--engine", action="append", required=True, help="a UCI engine command (give two or more)")
    parser.add_argument("--games", type=int, default=10, help="games read from the file")
    parser.add_argument("--movetime", type=int, default=100, help="milliseconds a search")
    parser.add_argument("--first-ply", type=int, default=8, help="plies of each game left out (the opening)")
    parser.add_argument("--last-ply", type=int, default=100, help="the last ply searched in each game")
    args = parser.parse_args()
    try:
        games = read_games(args.pgn, args.games)
    except (OSError, UnicodeDecodeError) as error:
        sys.exit(f"cannot read {args.pgn}: {error}")
    if not games:
        sys.exit(f"no games in {args.pgn}")
    results = {}
    for command in args.engine:
        try:
            results[command] = depths(command, games, args.movetime, args.first_ply, args.last_ply)
        except (OSError, chess.engine.EngineError, chess.engine.EngineTerminatedError) as error:
            sys.exit(f"engine {command!r} failed: {error}")
    print(f"{len(games)} games, go movetime {args.movetime}, plies {args.first_ply} to {args.last_ply}")
    print("| pieces | positions | " + " | ".join(f"{c.split()[0].split('/')[-1]} mean (median)" for c in args.engine) + " |")
    print("| --- | ---: |" + " --- |" * len(args.engine))
    for low, high in GROUPS:
        cells = []
        # Every engine searched the same positions.
        for command in args.engine:
            group = [depth for pieces, depth in results[command] if low <= pieces <= high]
            cells.append(f"{statistics.mean(group):.1f} ({statistics.median(group):g})" if group else "-")
        count = sum(low <= pieces <= high for pieces, _ in results[args.engine[0]])
        print(f"| {low}-{high} | {count} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
