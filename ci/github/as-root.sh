#!/usr/bin/env bash
# `as-root.sh DIR CMD...`: runs CMD as root (the netns and docker tiers create namespaces and nsenter
# into containers) with the runner's PATH, so setup-node's node and the pinned kind are the ones found
# rather than sudo's secure_path, then gives DIR back to the runner's user so later steps (report.pdf,
# the artifact upload) can write and read it. The exit status is CMD's.
set -euo pipefail
dir="${1:?usage: as-root.sh DIR CMD...}"
shift
if [ "$(id -u)" = 0 ]; then exec "$@"; fi
status=0
sudo --preserve-env env "PATH=$PATH" "$@" || status=$?
sudo chown -R "$(id -u):$(id -g)" "$dir"
exit "$status"
