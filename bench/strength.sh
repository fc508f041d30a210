#!/usr/bin/env bash
# Playing strength: varc's compiled engines against Fairy-Stockfish (or
# against a previous build of varc's engines), with the match runner of the
# bench crate (bench/src/bin/match.rs). Not part of CI.
#
#   bench/strength.sh                      # chess and Capablanca against fairy-stockfish
#   VARIANTS=chess GO="movetime 200" MAX_OPENINGS=10 bench/strength.sh
#   SAVE_ENGINES=target/engines-before bench/strength.sh   # keep this build's engines
#   PREVIOUS=target/engines-before GO="nodes 20000" SPRT=0,10 bench/strength.sh
#
# Settings (environment):
#   VARIANTS      variants to play (rules files variants/NAME.rules and
#                 openings bench/openings/NAME.txt); default "chess capablanca"
#   GO            what each engine is told per move; default "movetime 100"
#   MAX_OPENINGS  openings used, each played with both colours; default 20
#   OPENINGS      the openings file, with VARIANT for the variant's name;
#                 default bench/openings/VARIANT.txt (chess-wide.txt has
#                 60 chess openings, for engine against engine)
#   PREVIOUS      a folder of engines saved by SAVE_ENGINES: play against
#                 them (engine against previous engine) instead of fairy-stockfish
#   SAVE_ENGINES  copy the engines just built to this folder, one per variant
#   SPRT          ELO0,ELO1: stop a match early once the SPRT decides
#   PGO           1 (default): engines built guided by a profile
#                 (`varc build --pgo`, about a tenth more nodes a second;
#                 installs Debian's llvm-N of rustc's LLVM when missing);
#                 0: plain builds
#   WEIGHTS       a weights file (`varc tune`) for varc's engines, with
#                 VARIANT for the variant's name: tuned/VARIANT.weights;
#                 default variants/VARIANT.weights where the variant has
#                 one (the bundled fitted weights), "none" for the defaults
# Further arguments go to the match runner (see its --help).
set -euo pipefail
cd "$(dirname "$0")/.."

variants=${VARIANTS:-chess capablanca}
go=${GO:-movetime 100}
max_openings=${MAX_OPENINGS:-20}
openings=${OPENINGS:-bench/openings/VARIANT.txt}
target=${STRENGTH_TARGET_DIR:-target/native}

if [ -z "${PREVIOUS:-}" ]; then
    fairy_stockfish=$(command -v fairy-stockfish || echo /usr/games/fairy-stockfish)
    if [ ! -x "$fairy_stockfish" ]; then
        apt-get update -qq
        apt-get install -y -qq fairy-stockfish
    fi
fi

pgo=()
if [ "${PGO:-1}" = 1 ]; then
    pgo=(--pgo)
    bash scripts/install-llvm-profdata.sh
fi

# The engines are built for this machine's processor, and so is the runner.
RUSTFLAGS="-C target-cpu=native" CARGO_TARGET_DIR="$target" \
    cargo build --release -p varc -p varc-bench --bin varc --bin match
for variant in $variants; do
    weights=()
    weights_file=${WEIGHTS:-variants/VARIANT.weights}
    weights_file=${weights_file//VARIANT/$variant}
    if [ "$weights_file" != none ] && { [ -n "${WEIGHTS:-}" ] || [ -f "$weights_file" ]; }; then
        weights=(--weights "$weights_file")
        echo "$variant: weights from $weights_file"
    fi
    engine=$("$target/release/varc" build "variants/$variant.rules" "${weights[@]}" "${pgo[@]}" -o "$target/strength-crates/$variant")
    if [ -n "${SAVE_ENGINES:-}" ]; then
        mkdir -p "$SAVE_ENGINES"
        cp "$engine" "$SAVE_ENGINES/$variant"
    fi
    if [ -n "${PREVIOUS:-}" ]; then
        opponent="previous=$PREVIOUS/$variant uci"
    else
        opponent="fairy-stockfish=$fairy_stockfish"
    fi
    sprt=()
    if [ -n "${SPRT:-}" ]; then
        sprt=(--sprt "$SPRT")
    fi
    "$target/release/match" \
        --rules "variants/$variant.rules" \
        --openings "${openings//VARIANT/$variant}" \
        --max-openings "$max_openings" \
        --go "$go" \
        --first "varc=$engine uci" \
        --second "$opponent" \
        "${sprt[@]}" "$@"
done
