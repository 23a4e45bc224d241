#!/usr/bin/env bash
# Installs the pinned kind release binary, checked against its pinned SHA-256, ahead of whatever kind the
# runner image ships (images float to the newest kind). The version is the one lab/backends/kind pins;
# the checksum is the one published beside the release binary (kind-linux-amd64.sha256sum).
set -euo pipefail
version=v0.32.0
sha256=50030de23cf40a18505f20426f6a8506bedf13c6e509244bd1fa9463721b0f54
url="https://github.com/kubernetes-sigs/kind/releases/download/${version}/kind-linux-amd64"

bin="${RUNNER_TEMP:-/tmp}/lblab-kind/bin"
mkdir -p "$bin"
curl --fail --silent --show-error --location --retry 3 --max-time 120 -o "$bin/kind" "$url"
if ! echo "${sha256}  $bin/kind" | sha256sum --check --quiet -; then
  echo "install-kind: $url has SHA-256 $(sha256sum "$bin/kind" | cut -d' ' -f1), pinned ${sha256}" >&2
  rm -f "$bin/kind"
  exit 1
fi
chmod 0755 "$bin/kind"
# Later steps find this kind first; sudo keeps it through `env PATH=...` (lab-run.sh).
if [ -n "${GITHUB_PATH:-}" ]; then echo "$bin" >>"$GITHUB_PATH"; fi
"$bin/kind" version
