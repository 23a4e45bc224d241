#!/usr/bin/env bash
# Installs the Ubuntu packages one CI job needs: `apt-install.sh unit|netns|docker|kind|bench`. The
# names are .ci/run's (Debian's, which Ubuntu shares); ci/lint/workflows.test.ts checks that every
# name here is one .ci/run installs or one listed under runner_only with its reason.
set -euo pipefail
tier="${1:?usage: apt-install.sh unit|netns|docker|kind|bench}"

# The unit tier cross-checks the BGP and BFD codecs with tshark.
unit=(tshark)
# The netns tier: namespaces through iproute2, ping/arping, captures, real routers and keepalived.
netns=(iproute2 iputils-ping iputils-arping tcpdump tshark frr bird2 gobgpd keepalived nftables)
# The docker and kind tiers make the images' Debian base with debootstrap (as .ci/run does here).
docker=(debootstrap)
# The kind tier partitions a node from inside its network namespace with the runner's own nft.
kind=(debootstrap nftables)
# runner_only: Ubuntu's debootstrap needs Debian's archive key to make a bookworm base; Debian has it.
runner_only=(debian-archive-keyring)

case "$tier" in
  unit) packages=("${unit[@]}") ;;
  netns) packages=("${netns[@]}") ;;
  docker) packages=("${docker[@]}" "${runner_only[@]}") ;;
  kind) packages=("${kind[@]}" "${runner_only[@]}") ;;
  # The benchmarks run FRR, BIRD, keepalived and GoBGP in namespaces and docker labs.
  bench) packages=("${netns[@]}" "${docker[@]}" "${runner_only[@]}") ;;
  *)
    echo "apt-install: unknown tier '$tier' (unit, netns, docker, kind, bench)" >&2
    exit 2
    ;;
esac

echo "apt-install: ${packages[*]}"
sudo apt-get update -qq
sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
