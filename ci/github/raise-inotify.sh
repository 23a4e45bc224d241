#!/usr/bin/env bash
# kind's known issue "too many open files": every node runs kubelet and containerd watching files, and
# the runner's defaults (8192 watches, 128 instances) run out at three or four nodes. The values are
# the ones kind's documentation gives.
set -euo pipefail
sudo sysctl -w fs.inotify.max_user_watches=524288 fs.inotify.max_user_instances=512
