#!/usr/bin/env bash
# Installs Debian's llvm-N, N being rustc's LLVM major version, unless an
# llvm-profdata of that version is already where `varc build --pgo` looks
# (llvm-profdata-N on the PATH, /usr/lib/llvm-N/bin) or VARC_LLVM_PROFDATA
# names one. Used by .ci/run and bench/strength.sh; exits non-zero when the
# install fails.
set -euo pipefail
llvm_major=$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
if [ -z "$llvm_major" ]; then
    echo "rustc -vV names no LLVM version" >&2
    exit 1
fi
if [ -n "${VARC_LLVM_PROFDATA:-}" ] || command -v "llvm-profdata-$llvm_major" >/dev/null 2>&1 \
    || [ -x "/usr/lib/llvm-$llvm_major/bin/llvm-profdata" ]; then
    exit 0
fi
apt-get update -qq
apt-get install -y -qq "llvm-$llvm_major"
