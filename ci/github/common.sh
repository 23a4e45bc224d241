# shellcheck shell=bash
# Sourced (not run) by the scripts that run one CI job's command, `SCRIPT NAME [--root] ARGS...`
# (lab-run.sh, vitest.sh), after they set `usage` and `set -euo pipefail`. It takes NAME and --root off
# the script's own arguments (a sourced file shifts its caller's), leaving ARGS in "$@", and sets
# name, root (yes or no) and out, the job's artifact directory reports/out/ci/NAME.
if [ -z "${1:-}" ]; then
  echo "$(basename "$0"): usage: $usage" >&2
  exit 1
fi
name="$1"
shift
root=no
if [ "${1:-}" = --root ]; then
  root=yes
  shift
fi
out="reports/out/ci/$name"

# `job_exec LABEL CMD...`: creates the artifact directory, says what runs and becomes CMD, as root
# through as-root.sh (which gives the files back to the runner) when --root was given.
job_exec() {
  local label="$1"
  shift
  mkdir -p "$out"
  echo "$label: $*"
  if [ "$root" = yes ]; then exec "$(dirname "${BASH_SOURCE[0]}")/as-root.sh" "$out" "$@"; fi
  exec "$@"
}
