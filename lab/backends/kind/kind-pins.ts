/**
 * The versions the kind backend is pinned to, in one place: the workflows install these, the backend
 * refuses older tools. kind supports a node image only with the release that built it (its release notes
 * list them), so the node image moves with the kind version.
 */

/** The oldest kind whose config has node labels and `KIND_EXPERIMENTAL_DOCKER_NETWORK` as used here. */
export const KIND_MIN_VERSION = '0.27.0';

/** The kind release the backend is run with on GitHub (ubuntu-24.04 runners ship it; the job pins it). */
export const KIND_PINNED_VERSION = '0.32.0';

/** The oldest Docker engine whose networks take dual-stack subnets and `--ipv6` as used here. */
export const DOCKER_MIN_VERSION = '24.0.0';

/**
 * kind 0.32.0's default node image (Kubernetes 1.36.1) by digest, as its release notes say to pin it.
 * Not pulled here (no registry); the digest was checked against the release's entry as quoted by several
 * independent public pins, and so was install-kind.sh's binary checksum. LBLAB_KIND_NODE_IMAGE overrides it.
 */
export const KIND_NODE_IMAGE =
  'kindest/node:v1.36.1@sha256:3489c7674813ba5d8b1a9977baea8a6e553784dab7b84759d1014dbd78f7ebd5';

/** How long `kind create cluster --wait` may wait for the control plane to be ready. */
export const KIND_CREATE_WAIT_SECONDS = 180;
