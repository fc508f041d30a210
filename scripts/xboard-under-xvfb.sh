#!/usr/bin/env bash
# Opt-in: the real XBoard (4.9) runs two varc engines on a PPC position in
# TwoMachines mode, with legality testing on, under a virtual X server, and
# checks what XBoard made of it: the position loaded at start-up (-lpf)
# reached both engines and stayed, every engine move passed XBoard's
# legality test, XBoard relayed the piece promotions to the other engine as
# `usermove ...+`, and XBoard shows the promoted pieces. Then a person
# (xdotool typing into XBoard's board) promotes White's rook, `h1h8+`, and
# the engine, playing Black, answers. It saves XBoard's PGN, debug logs and
# screenshots (PNG) in the output folder.
#
#   bash scripts/xboard-under-xvfb.sh [OUT_DIR]        (default: target/xboard-check)
#   SECOND="target/varc-engines/release/varc-engine-ppc xboard" bash scripts/xboard-under-xvfb.sh
#       (the second engine a compiled one, from `varc build variants/ppc.rules`)
#
# Needs Debian's xboard, xvfb, x11-apps (xwd), netpbm (PNG) and xdotool;
# installs them with apt-get when missing and allowed.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(realpath -m "${1:-target/xboard-check}")"
mkdir -p "$out"
rm -f "$out"/game.pgn "$out"/*.debug "$out"/*.png

need=()
[ -x /usr/games/xboard ] || need+=(xboard)
command -v xvfb-run >/dev/null || need+=(xvfb)
command -v xwd >/dev/null || need+=(x11-apps)
command -v pnmtopng >/dev/null || need+=(netpbm)
command -v xdotool >/dev/null || need+=(xdotool)
if [ ${#need[@]} -gt 0 ]; then
  apt-get install -y -qq "${need[@]}" >/dev/null 2>&1 \
    || (apt-get update -qq && apt-get install -y -qq "${need[@]}" >/dev/null)
fi

cargo build -q --bin varc
varc="$(realpath "${CARGO_TARGET_DIR:-target}/debug/varc")"
rules="$(realpath variants/ppc.rules)"
first="$varc xboard $rules"
second="$first"
if [ -n "${SECOND:-}" ]; then
  read -r program arguments <<< "$SECOND"
  second="$(realpath "$program") $arguments"
fi

# White's rook and bishop can enter enemy territory at once (P1), so both
# promotions come in the first moves.
position="r3k3/8/8/8/2B5/8/8/4K2R w K - 0 1"
echo "$position" > "$out/position.fen"

cd "$out"
timeout 120 xvfb-run -a -s "-screen 0 1024x768x24" bash -c "
  /usr/games/xboard -fcp '$first' -scp '$second' -variant ppc -lpf position.fen \
    -initialMode TwoMachines -testLegality true -searchDepth 2 -tc 5 \
    -sgf game.pgn -debug -nameOfDebugFile xboard.debug \
    -popupExitMessage false -popupMoveErrors false >/dev/null 2>&1 &
  for _ in \$(seq 100); do sleep 1; [ -s game.pgn ] && break; done
  sleep 1
  xwd -root -silent | xwdtopnm 2>/dev/null | pnmtopng > screenshot.png
  kill %1 2>/dev/null || true
  wait
" || true

fail() { echo "xboard check FAILED: $*" >&2; echo "see $out" >&2; exit 1; }
[ -s game.pgn ] || fail "no game was saved"
[ -s screenshot.png ] || fail "no screenshot"
grep -q -i "forfeit\|illegal move" xboard.debug && fail "$(grep -i -m1 'forfeit\|illegal move' xboard.debug)"
grep -q "did not send setup" xboard.debug && fail "XBoard: engine did not send setup"
grep -q "^\[FEN \"${position}\"\]" game.pgn || fail "the loaded position is not the game's"
[ "$(grep -c ">second: setboard ${position}" xboard.debug)" -ge 1 ] || fail "the second engine never got the loaded position"
grep -q ">second: usermove .*[a-z][0-9]+$\|>second: [a-z][0-9][a-z][0-9]+$" xboard.debug \
  || fail "no piece promotion relayed as usermove ...+"
grep -q "+[RBN]" game.pgn || fail "XBoard never moved a promoted piece (+R, +B, +N)"
machine_moves="$(grep -c '<first : move\|<second: move' xboard.debug)"

# A person at the board: a click on an empty square gives the board the
# keyboard focus, typing opens XBoard's move type-in; Ctrl+B sets the
# engine playing Black.
timeout 60 xvfb-run -a -s "-screen 0 1024x768x24" bash -c "
  /usr/games/xboard -fcp '$first' -variant ppc -lpf position.fen \
    -testLegality true -searchDepth 2 -tc 5 -debug -nameOfDebugFile human.debug \
    -popupExitMessage false -popupMoveErrors false >/dev/null 2>&1 &
  sleep 4
  xdotool mousemove 175 262 click 1
  sleep 0.5
  xdotool type --delay 80 'h1h8+'
  xdotool key Return
  sleep 1
  xdotool key ctrl+b
  for _ in \$(seq 20); do sleep 1; grep -q '<first : move' human.debug && break; done
  xdotool mousemove 900 700
  sleep 1
  xwd -root -silent | xwdtopnm 2>/dev/null | pnmtopng > human.png
  kill %1 2>/dev/null || true
  wait
" || true
grep -q ">first : h1h8+$" human.debug || fail "XBoard did not send the person's h1h8+"
grep -q -i "illegal move" human.debug && fail "$(grep -i -m1 'illegal move' human.debug)"
grep -q "<first : move" human.debug || fail "the engine did not answer the person's promotion"
echo "xboard check passed: $machine_moves engine moves in TwoMachines, a person's h1h8+ answered; $out/screenshot.png, $out/human.png"
