#!/usr/bin/env bash
# The scheduled benchmarks: `bench.sh OUT [NAME...]`. `npm run bench` as root (FRR, BIRD, GoBGP and
# keepalived in namespaces and docker labs need it), its table of medians kept as OUT/bench.txt and its
# progress as OUT/bench.log for the artifact, and the benches that write JSON (the emulated scale curve)
# write it into OUT (LBLAB_BENCH_OUT).
# Exit status is the bench's.
set -euo pipefail
out="${1:?usage: bench.sh OUT [NAME...]}"
shift
mkdir -p "$out"
export LBLAB_BENCH_OUT="$out"
status=0
"$(dirname "$0")/as-root.sh" "$out" \
  bash -c 'out="$1"; shift; npm run --silent bench -- "$@" >"$out/bench.txt" 2> >(tee "$out/bench.log" >&2)' \
  bench "$out" "$@" || status=$?
cat "$out/bench.txt"
exit "$status"
