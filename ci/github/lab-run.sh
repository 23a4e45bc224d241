#!/usr/bin/env bash
# One `lblab run` of a CI job: `lab-run.sh NAME [--root] [lblab run options...]`. The run's files go to
# reports/out/ci/NAME/<runId>/ (result.json, report.md, junit.xml, report.html, captures, kind logs),
# the directory the job uploads as its artifact; the exit status is lblab's (0 pass, 1 a gate failed,
# 2 an error). --root runs it as root through as-root.sh (which gives the files back to the runner).
set -euo pipefail
name="${1:?usage: lab-run.sh NAME [--root] [lblab run options...]}"
shift
root=no
if [ "${1:-}" = --root ]; then
  root=yes
  shift
fi
out="reports/out/ci/$name"
mkdir -p "$out"
cmd=(node lab/cli/lblab.mjs run --out "$out" "$@")
echo "lab-run: ${cmd[*]}"
if [ "$root" = yes ]; then exec "$(dirname "$0")/as-root.sh" "$out" "${cmd[@]}"; fi
exec "${cmd[@]}"
