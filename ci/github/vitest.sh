#!/usr/bin/env bash
# Runs vitest projects as a CI job does: `vitest.sh NAME [--root] PROJECT...`. Beside the repository's
# reporters, GitHub's annotations for failed tests (vitest adds them only when the config names no
# reporters, and ours does) and a JUnit file at reports/out/ci/NAME/vitest-junit.xml for the artifact.
set -euo pipefail
usage='vitest.sh NAME [--root] PROJECT...'
source "$(dirname "$0")/common.sh"
[ $# -gt 0 ] || {
  echo "vitest.sh: name at least one project" >&2
  exit 2
}
projects=()
for p in "$@"; do projects+=(--project "$p"); done
job_exec vitest npx vitest run "${projects[@]}" \
  --reporter=default --reporter=./ci/vitest/summary-reporter.ts --reporter=github-actions \
  --reporter=junit --outputFile.junit="$out/vitest-junit.xml"
