#!/usr/bin/env bash
# Search speed of the compiled chess engine against Fairy-Stockfish and the
# interpreter (bench/search_speed.py). Not part of CI. Installs Debian's
# fairy-stockfish and python-chess when missing, builds varc and the chess
# engine (both for this machine's processor), then runs the comparison; arguments go to the Python script
# (e.g. --varc-depth 7 --json target/search-speed.json).
set -euo pipefail
cd "$(dirname "$0")/.."

fairy_stockfish=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)
if [ ! -x "$fairy_stockfish" ]; then
    apt-get update -qq
    apt-get install -y -qq fairy-stockfish
fi
python3 -c 'import chess' 2>/dev/null || python3 -m pip install -q chess

# `varc build` builds engines for this machine's processor; the interpreter
# it is compared with is built the same way, in a target directory of its own.
RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR=target/native cargo build --release
engine=$(target/native/release/varc build variants/chess.rules -o target/bench-chess-engine)

exec python3 bench/search_speed.py \
    --fairy-stockfish "$fairy_stockfish" \
    --varc-engine "$engine" \
    --interpreter "target/native/release/varc uci variants/chess.rules" \
    "$@"
