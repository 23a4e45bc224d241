#!/usr/bin/env bash
# The release gate: `release-gate.sh ARTIFACTS OUT`. Merges every job's result.json found under ARTIFACTS
# (the downloaded artifacts) into one report in OUT with `lblab report merge`, which re-applies
# reports/gates.yaml, and fails when any gate failed or any scenario errored (lblab's exit status), when
# no result was found, or when a job it needs did not succeed (JOB_RESULTS, the needs' results
# separated by spaces): a job that died before reporting has no result.json to fail the merge with.
set -euo pipefail
artifacts="${1:?usage: release-gate.sh ARTIFACTS OUT}"
out="${2:?usage: release-gate.sh ARTIFACTS OUT}"
mapfile -t results < <(find "$artifacts" -name result.json -type f 2>/dev/null | sort)
if [ ${#results[@]} -eq 0 ]; then
  echo "release-gate: no result.json under $artifacts: no job reported" >&2
  exit 1
fi
echo "release-gate: merging ${#results[@]} run(s): ${results[*]}"
status=0
node lab/cli/lblab.mjs report merge "${results[@]}" --out "$out" || status=$?
for r in ${JOB_RESULTS:-}; do
  if [ "$r" != success ]; then
    echo "release-gate: a job this gate needs ended '$r' (all: ${JOB_RESULTS})" >&2
    [ "$status" -ne 0 ] || status=1
    break
  fi
done
exit "$status"
