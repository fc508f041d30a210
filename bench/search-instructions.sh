#!/usr/bin/env bash
# Instructions per node of the compiled chess engine's fixed-depth searches
# (bench/search_instructions.py), for speed changes smaller than the
# clock's noise. Not part of CI. Installs Valgrind when missing, builds varc
# and the chess engine crate, and builds the engine for x86-64-v3 (Valgrind
# knows no AVX-512) with line tables, in a target directory of its own.
# Arguments go to the Python script (e.g. --depth 8, or more engines to
# compare: build one from another checkout with this script's ENGINE_OUT).
#
#   bench/search-instructions.sh
#   ENGINE_OUT=/tmp/before bench/search-instructions.sh   # also copy the engine there
#   bench/search-instructions.sh /tmp/before              # this tree's engine against it
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v valgrind >/dev/null; then
    apt-get update -qq
    apt-get install -y -qq valgrind
fi

cargo build --release --bin varc
crate=target/instructions/chess-crate
target/release/varc build variants/chess.rules --weights variants/chess.weights -o "$crate" --no-build
CARGO_TARGET_DIR=target/instructions/build \
    CARGO_PROFILE_RELEASE_DEBUG=line-tables-only \
    RUSTFLAGS="-C target-cpu=x86-64-v3" \
    cargo build --release --manifest-path "$crate/Cargo.toml"
engine=$(find target/instructions/build/release -maxdepth 1 -type f -name 'varc-engine-chess-*' -perm -u+x | head -n 1)
if [ -n "${ENGINE_OUT:-}" ]; then
    cp "$engine" "$ENGINE_OUT"
fi
exec python3 bench/search_instructions.py "$engine" "$@"
