#!/usr/bin/env bash
# Appends every report.md under DIR to the job's summary page: `step-summary.sh DIR [TITLE]`. lblab keeps
# each report.md under GitHub's 1 MiB per step; a job with no report says so rather than staying blank.
set -euo pipefail
dir="${1:?usage: step-summary.sh DIR [TITLE]}"
title="${2:-$dir}"
summary="${GITHUB_STEP_SUMMARY:-/dev/stdout}"
mapfile -t reports < <(find "$dir" -name report.md -type f 2>/dev/null | sort)
if [ ${#reports[@]} -eq 0 ]; then
  printf '## %s\n\nNo report.md was written under `%s`: the job ended before lblab reported (see its log).\n' \
    "$title" "$dir" >>"$summary"
  exit 0
fi
for md in "${reports[@]}"; do
  cat "$md" >>"$summary"
  printf '\n' >>"$summary"
done
