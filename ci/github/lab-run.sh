#!/usr/bin/env bash
# One `lblab run` of a CI job: `lab-run.sh NAME [--root] [lblab run options...]`. The run's files go to
# reports/out/ci/NAME/<runId>/ (result.json, report.md, junit.xml, report.html, captures, kind logs),
# the directory the job uploads as its artifact; the exit status is lblab's (0 pass, 1 a gate failed,
# 2 an error). --root runs it as root through as-root.sh (which gives the files back to the runner).
set -euo pipefail
usage='lab-run.sh NAME [--root] [lblab run options...]'
source "$(dirname "$0")/common.sh"
job_exec lab-run node lab/cli/lblab.mjs run --out "$out" "$@"
