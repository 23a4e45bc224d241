/**
 * What `lblab manifests` is asked for, checked before anything is printed: a namespace Kubernetes would
 * accept and an image reference a container runtime can pull.
 */
import { LblabError } from '../../errors/lblab-error.ts';

export interface BundleOptions {
  namespace: string;
  image: string;
  /** Include the CustomResourceDefinitions (leave them out when they are managed separately). */
  crds: boolean;
  /** Include the webhook Service and configuration, and have the controller serve them. */
  webhooks: boolean;
}

export class InvalidNamespaceError extends LblabError {
  readonly code = 'BUNDLE_NAMESPACE';
}

export class InvalidImageReferenceError extends LblabError {
  readonly code = 'BUNDLE_IMAGE_REFERENCE';
}

/** A DNS-1123 label, which is what a namespace name is. */
const dnsLabel = /^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?$/;

export function checkNamespace(name: string): void {
  if (name.length <= 63 && dnsLabel.test(name)) return;
  throw new InvalidNamespaceError(
    `namespace ${JSON.stringify(name)} is not a namespace name: use at most 63 lower-case letters, digits and '-', starting and ending with a letter or digit`,
  );
}

// The grammar of distribution/reference (what Docker, containerd and the kubelet parse): an optional
// registry host with a port, a path of lower-case components, then ":tag" and/or "@algorithm:hex".
const component = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const domainComponent = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const domain = `(?:${domainComponent}(?:\\.${domainComponent})*|\\[[0-9a-fA-F:.]+\\])(?::[0-9]+)?`;
const tag = '[\\w][\\w.-]{0,127}';
const digest = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const reference = new RegExp(
  `^(?:(${domain})/)?(${component}(?:/${component})*)(?::${tag})?(?:@${digest})?$`,
);

export function checkImageReference(image: string): void {
  const match = reference.exec(image);
  const name = match === null ? '' : `${match[1] === undefined ? '' : `${match[1]}/`}${match[2] ?? ''}`;
  if (match !== null && name.length <= 255) return;
  throw new InvalidImageReferenceError(
    `image ${JSON.stringify(image)} is not an image reference: write [registry/]name[:tag][@sha256:digest], the name in lower case (e.g. lblab:0.1.0 or registry.example.com/lblab:0.1.0)`,
  );
}
