#!/usr/bin/env bash
# Prints report.pdf beside every report.html under DIR: `report-pdf.sh DIR`. lblab prints with Debian's
# chromium or LBLAB_CHROMIUM; GitHub's Ubuntu runners have no /usr/bin/chromium but ship Google Chrome,
# which playwright-core drives the same way, so it is named here when nothing else is.
set -euo pipefail
dir="${1:?usage: report-pdf.sh DIR}"
if [ -z "${LBLAB_CHROMIUM:-}" ] && [ ! -x /usr/bin/chromium ]; then
  for candidate in google-chrome google-chrome-stable chromium-browser; do
    if found="$(command -v "$candidate")"; then
      export LBLAB_CHROMIUM="$found"
      break
    fi
  done
fi
mapfile -t reports < <(find "$dir" -name report.html -type f | sort)
if [ ${#reports[@]} -eq 0 ]; then
  echo "report-pdf: no report.html under $dir (the run ended before writing its report)" >&2
  exit 1
fi
for html in "${reports[@]}"; do node lab/cli/lblab.mjs report pdf "$html"; done
