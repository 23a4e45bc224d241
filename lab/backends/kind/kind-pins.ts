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
 * kind 0.32.0's default node image (Kubernetes 1.36.1). The digest of its release-notes entry could not be
 * read from this machine; LBLAB_KIND_NODE_IMAGE overrides the image, e.g. with `…@sha256:<digest>`.
 */
export const KIND_NODE_IMAGE = 'kindest/node:v1.36.1';

/** How long `kind create cluster --wait` may wait for the control plane to be ready. */
export const KIND_CREATE_WAIT_SECONDS = 180;
