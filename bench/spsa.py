#!/usr/bin/env python3
r"""SPSA tuning of the search's numbers, or the evaluation's scalar weights,
from games (not part of CI).

Simultaneous perturbation stochastic approximation, as Fishtest runs it:
each step moves every tuned number at once by +c or -c (a random sign per
number), plays one opening with both colours between the engine with the
numbers moved up and the engine with them moved down (the match runner,
`bench/src/bin/match.rs`, at a fixed number of nodes a move, so the load of
the machine does not bias the games), and moves every number along its sign
by a step proportional to the pair's result (wins minus losses of the "up"
engine). Steps shrink as the run goes on (the gains a_k and c_k of Spall's
schedule, with Fishtest's `c_end` and `r_end` parameterisation). Several
workers play at once, each reading the numbers as they are and updating
them as its pair ends.

The engines are those `varc build` writes; they list their tunable numbers
as UCI spin options when VARC_TUNE is set (runtime/src/search/params.rs,
and the evaluation's weights by their weights-file names, such as
`royal-danger`), and any of them can be tuned (`--tune`). Variants
alternate between steps.

    cargo build --release -p varc-bench --bin match
    bench/spsa.py --engine chess=ENGINE --engine capablanca=ENGINE \
        --pairs 1000 --r-end 0.02 --go "nodes 8000" --state target/spsa.json

The state file holds the numbers, the step count and every pair's result;
a run stopped and started again with the same file goes on where it
stopped. The numbers at the end are printed one per line (rounded, beside
the engine's default) and as `--first-option` arguments of the match
runner, for the match that decides whether they become the defaults in
`SearchParams::default`.
"""

import argparse
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import threading

# Numbers tuned by default: name -> c_end (the perturbation at the end of
# the run, about what changes the strength by a few Elo).
DEFAULT_TUNED = {
    "reverse_futility_margin": 10,
    "futility_margin": 12,
    "exchange_quiet_margin": 3,
    "exchange_capture_margin": 15,
    "late_move_base": 1,
    "reduction_base": 10,
    "reduction_divisor": 15,
    "history_reduction_divisor": 800,
    "aspiration_window": 5,
    "null_reduction_base": 0.5,
    "singular_margin": 1,
}

ALPHA = 0.602
GAMMA = 0.101


def advertised_numbers(command):
    """The spin options the engine lists under VARC_TUNE: name -> (default, min, max)."""
    env = dict(os.environ, VARC_TUNE="1")
    try:
        out = subprocess.run(
            command.split(), input="uci\nquit\n", capture_output=True, text=True, env=env, timeout=60
        ).stdout
    except (OSError, subprocess.SubprocessError) as error:
        sys.exit(f"spsa: cannot run {command}: {error}")
    numbers = {}
    for line in out.splitlines():
        m = re.match(r"option name (\S+) type spin default (-?\d+) min (-?\d+) max (-?\d+)", line)
        if m:
            numbers[m.group(1)] = tuple(int(m.group(i)) for i in (2, 3, 4))
    return numbers


def read_openings(path):
    lines = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                lines.append(line)
    return lines


def stochastic_round(value, rng):
    low = math.floor(value)
    return low + (1 if rng.random() < value - low else 0)


class Run:
    def __init__(self, args):
        self.args = args
        self.lock = threading.Lock()
        self.error = None
        self.engines = []
        for spec in args.engine:
            variant, command = spec.split("=", 1)
            if " " not in command:
                command += " uci"
            openings_path = args.openings.replace("VARIANT", variant)
            self.engines.append((variant, command, read_openings(openings_path)))
        advertised = advertised_numbers(self.engines[0][1])
        if not advertised:
            sys.exit("spsa: the engine lists no tunable numbers (is it built by varc?)")
        tuned = DEFAULT_TUNED
        if args.tune:
            tuned = {}
            for item in args.tune.split(","):
                name, c_end = item.split("=")
                tuned[name] = float(c_end)
        unknown = [name for name in tuned if name not in advertised]
        if unknown:
            sys.exit(f"spsa: the engine has no number {', '.join(unknown)}")
        self.spec = {name: (c_end,) + advertised[name] for name, c_end in tuned.items()}
        self.state = {"step": 0, "theta": {n: float(s[1]) for n, s in self.spec.items()}, "log": []}
        if os.path.exists(args.state):
            with open(args.state) as f:
                saved = json.load(f)
            self.state["step"] = saved["step"]
            self.state["log"] = saved.get("log", [])
            self.state["theta"].update({n: v for n, v in saved["theta"].items() if n in self.spec})
        n = args.pairs
        self.big_a = 0.1 * n
        self.gains = {}
        for name, (c_end, _default, _lo, _hi) in self.spec.items():
            c = c_end * n**GAMMA
            a_end = args.r_end * c_end**2
            a = a_end * (self.big_a + n) ** ALPHA
            self.gains[name] = (a, c)
        self.rng = random.Random(args.seed + self.state["step"])

    def take_step(self):
        with self.lock:
            k = self.state["step"]
            if k >= self.args.pairs:
                return None
            self.state["step"] += 1
            plus, minus, flips, cs = {}, {}, {}, {}
            for name, (_c_end, _default, lo, hi) in self.spec.items():
                a, c = self.gains[name]
                ck = c / (k + 1) ** GAMMA
                flip = self.rng.choice((-1, 1))
                theta = self.state["theta"][name]
                plus[name] = min(hi, max(lo, stochastic_round(theta + ck * flip, self.rng)))
                minus[name] = min(hi, max(lo, stochastic_round(theta - ck * flip, self.rng)))
                flips[name], cs[name] = flip, ck
            variant, command, openings = self.engines[k % len(self.engines)]
            opening = openings[(k // len(self.engines)) % len(openings)]
        return k, variant, command, opening, plus, minus, flips, cs

    def play_pair(self, variant, command, opening, plus, minus):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write(opening + "\n")
            path = f.name
        try:
            cmd = [
                self.args.match,
                "--rules", self.args.rules.replace("VARIANT", variant),
                "--openings", path,
                "--go", self.args.go,
                "--first", f"plus={command}",
                "--second", f"minus={command}",
            ]
            cmd += [f"--first-option={n}={v}" for n, v in plus.items()]
            cmd += [f"--second-option={n}={v}" for n, v in minus.items()]
            env = dict(os.environ, VARC_TUNE="1")
            out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600)
        finally:
            os.unlink(path)
        m = re.search(r"\|\s*\S+\s*\|\s*2\s*\|\s*(\d+)-(\d+)-(\d+)\s*\|", out.stdout)
        if not m:
            raise RuntimeError(f"no result from the match runner:\n{out.stdout}\n{out.stderr}")
        wins, _draws, losses = (int(m.group(i)) for i in (1, 2, 3))
        return wins - losses

    def update(self, k, variant, result, flips, cs):
        with self.lock:
            for name, (_c_end, _default, lo, hi) in self.spec.items():
                a, _c = self.gains[name]
                ak = a / (self.big_a + k + 1) ** ALPHA
                theta = self.state["theta"][name] + ak / cs[name] * result * flips[name]
                self.state["theta"][name] = min(hi, max(lo, theta))
            self.state["log"].append([k, variant, result])
            done = len(self.state["log"])
            if done % 10 == 0 or done == self.args.pairs:
                self.save()
                score = sum(r for _, _, r in self.state["log"][-200:])
                shown = " ".join(f"{n}={v:.1f}" for n, v in self.state["theta"].items())
                print(f"pair {done}/{self.args.pairs} (last 200: plus-minus {score:+d}) {shown}", flush=True)

    def save(self):
        tmp = self.args.state + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.state, f, indent=1)
        os.replace(tmp, self.args.state)

    def worker(self):
        while self.error is None:
            step = self.take_step()
            if step is None:
                return
            k, variant, command, opening, plus, minus, flips, cs = step
            try:
                result = self.play_pair(variant, command, opening, plus, minus)
            except (RuntimeError, OSError, subprocess.SubprocessError) as error:
                self.error = str(error)
                return
            self.update(k, variant, result, flips, cs)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", action="append", required=True, help="VARIANT=COMMAND (repeatable)")
    parser.add_argument("--rules", default="variants/VARIANT.rules", help="rules file, VARIANT replaced")
    parser.add_argument("--openings", default="bench/openings/VARIANT.txt", help="openings file, VARIANT replaced")
    parser.add_argument("--match", default="target/release/match", help="the match runner")
    parser.add_argument("--go", default="nodes 8000", help="what each engine is told per move")
    parser.add_argument("--pairs", type=int, default=1000, help="game pairs in the whole run")
    parser.add_argument("--jobs", type=int, default=2, help="pairs played at once")
    parser.add_argument(
        "--r-end", type=float, default=0.02,
        help="Fishtest's r_end (a_end = r_end * c_end^2); Fishtest's 0.002 suits runs of tens of thousands of games",
    )
    parser.add_argument("--tune", help="NAME=C_END,... instead of the default list")
    parser.add_argument("--seed", type=int, default=1, help="seed of the perturbations' signs")
    parser.add_argument("--state", default="target/spsa.json", help="the run's state (read when present)")
    args = parser.parse_args()
    run = Run(args)
    threads = [threading.Thread(target=run.worker) for _ in range(args.jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    run.save()
    if run.error is not None:
        sys.exit(f"spsa: stopped (the state is saved): {run.error}")
    print("final numbers:")
    for name, value in run.state["theta"].items():
        default = run.spec[name][1]
        print(f"  {name}: {round(value)} (default {default}, fitted {value:.2f})")
    print("as options: " + " ".join(f"--first-option {n}={round(v)}" for n, v in run.state["theta"].items()))


if __name__ == "__main__":
    main()
