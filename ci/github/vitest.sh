#!/usr/bin/env bash
# Runs vitest projects as a CI job does: `vitest.sh NAME [--root] PROJECT...`. Beside the repository's
# reporters, GitHub's annotations for failed tests (vitest adds them only when the config names no
# reporters, and ours does) and a JUnit file at reports/out/ci/NAME/vitest-junit.xml for the artifact.
set -euo pipefail
name="${1:?usage: vitest.sh NAME [--root] PROJECT...}"
shift
root=no
if [ "${1:-}" = --root ]; then
  root=yes
  shift
fi
[ $# -gt 0 ] || {
  echo "vitest.sh: name at least one project" >&2
  exit 2
}
out="reports/out/ci/$name"
mkdir -p "$out"
projects=()
for p in "$@"; do projects+=(--project "$p"); done
cmd=(npx vitest run "${projects[@]}"
  --reporter=default --reporter=./ci/vitest/summary-reporter.ts --reporter=github-actions
  --reporter=junit --outputFile.junit="$out/vitest-junit.xml")
echo "vitest: ${cmd[*]}"
if [ "$root" = yes ]; then exec "$(dirname "$0")/as-root.sh" "$out" "${cmd[@]}"; fi
exec "${cmd[@]}"
