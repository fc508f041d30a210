"""python-chess, a client varc did not write, drives `varc uci` and
`varc xboard` for chess and PPC games, reads varc's records with chess.pgn
and writes a PGN for varc's loader (tests/clients_python_chess.rs).

Usage: python_chess_client.py VARC VARIANTS_DIR OUT_DIR
Exit 0 when every check passes; otherwise a message on stderr.
"""

import logging
import pathlib
import subprocess
import sys

import chess
import chess.engine
import chess.pgn

VARC, VARIANTS, OUT = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])


class Warnings(logging.Handler):
    """Collects python-chess's warnings (e.g. "Unexpected engine output")."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


warnings = Warnings()
logging.getLogger("chess.engine").addHandler(warnings)


def fail(message):
    sys.stderr.write(message + "\n")
    sys.exit(1)


class PpcBoard(chess.Board):
    """PPC's start position and chess moves: python-chess names the variant
    to the engine (`UCI_Variant ppc`, XBoard `variant ppc`) from these."""

    uci_variant = "ppc"
    xboard_variant = "ppc"


def play(protocol, variant, plies, stop_at_foreign_move):
    """Plays `plies` engine moves from the start; returns the moves in UCI
    text. In PPC, python-chess's chess rules refuse PPC's piece promotions:
    the game stops there when `stop_at_foreign_move`."""
    command = [VARC, protocol, str(VARIANTS / f"{variant}.rules")]
    opener = chess.engine.SimpleEngine.popen_uci if protocol == "uci" else chess.engine.SimpleEngine.popen_xboard
    engine = opener(command)
    board = PpcBoard() if variant == "ppc" else chess.Board()
    moves = []
    try:
        for _ in range(plies):
            if board.is_game_over():
                break
            try:
                result = engine.play(board, chess.engine.Limit(depth=2))
            except chess.engine.EngineError as error:
                if stop_at_foreign_move:
                    break
                raise error
            if result.move is None:
                break
            moves.append(result.move.uci())
            board.push(result.move)
    finally:
        engine.quit()
    return board, moves


def replay_in_varc(variant, moves):
    out = subprocess.run(
        [VARC, "replay", str(VARIANTS / f"{variant}.rules"), "--moves", " ".join(moves)],
        capture_output=True, text=True)
    if out.returncode != 0:
        fail(f"varc replay refused python-chess's {variant} game: {out.stdout}{out.stderr}")


for protocol in ["uci", "xboard"]:
    before = len(warnings.messages)
    board, moves = play(protocol, "chess", 16, False)
    if len(moves) < 8:
        fail(f"chess over {protocol}: only {moves}")
    if len(warnings.messages) > before:
        fail(f"chess over {protocol}: python-chess warned: {warnings.messages[before:]}")
    replay_in_varc("chess", moves)
    if protocol == "uci":
        # A game python-chess writes, with a comment, a NAG and a variation,
        # for varc's loader.
        game = chess.pgn.Game.from_board(board)
        game.headers["Event"] = "python-chess"
        first = game.next()
        first.comment = "from python-chess"
        first.nags.add(chess.pgn.NAG_GOOD_MOVE)
        game.add_variation(chess.Move.from_uci("d2d4")).comment = "a line not played"
        (OUT / "from-python-chess.pgn").write_text(str(game) + "\n")

    _, moves = play(protocol, "ppc", 10, True)
    if not moves:
        fail(f"ppc over {protocol}: no move")
    replay_in_varc("ppc", moves)

# MultiPV: python-chess's analyse(multipv=3) gets three distinct lines, best
# first, and the move played after a time-limited search starts the last pv
# reported.
engine = chess.engine.SimpleEngine.popen_uci([VARC, "uci", str(VARIANTS / "chess.rules")])
try:
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    infos = engine.analyse(board, chess.engine.Limit(depth=4), multipv=3)
    if len(infos) != 3:
        fail(f"analyse(multipv=3) gave {len(infos)} lines: {infos}")
    firsts = [info["pv"][0] for info in infos]
    if len(set(firsts)) != 3 or any(move not in board.legal_moves for move in firsts):
        fail(f"analyse(multipv=3): lines {firsts}")
    if [info["multipv"] for info in infos] != [1, 2, 3]:
        fail(f"analyse(multipv=3): {infos}")
    for movetime in [0.03, 0.08]:
        with engine.analysis(board, chess.engine.Limit(time=movetime)) as analysis:
            last_pv = None
            for info in analysis:
                if "pv" in info:
                    last_pv = info["pv"]
            best = analysis.wait().move
        if not last_pv or last_pv[0] != best:
            fail(f"bestmove {best} is not the last pv's first move {last_pv}")
finally:
    engine.quit()

# varc's records, read by chess.pgn.
for variant in ["chess", "ppc"]:
    folder = OUT / f"records-{variant}"
    out = subprocess.run(
        [VARC, "selfplay", str(VARIANTS / f"{variant}.rules"), "--games", "1", "--depth", "1",
         "--out", str(folder)], capture_output=True, text=True)
    if out.returncode != 0:
        fail(f"selfplay {variant}: {out.stderr}")
    for path in sorted(folder.glob("*.pgn")):
        with open(path) as handle:
            headers = chess.pgn.read_headers(handle)
        for name in ["Event", "Site", "Date", "Round", "White", "Black", "Result"]:
            if name not in headers:
                fail(f"{path}: no {name} tag")
        if headers.get("Variant") != variant:
            fail(f"{path}: Variant tag {headers.get('Variant')!r}")
        if variant == "chess":
            with open(path) as handle:
                game = chess.pgn.read_game(handle)
            if game.errors:
                fail(f"{path}: chess.pgn: {game.errors}")
            if len(list(game.mainline_moves())) == 0:
                fail(f"{path}: chess.pgn read no move")
print("ok")
