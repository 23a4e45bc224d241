import { LblabError } from '../../core/errors/lblab-error.ts';

/** No Docker engine answers; the message says where it was looked for and how to start one. */
export class DockerUnavailableError extends LblabError {
  readonly code = 'DOCKER_UNAVAILABLE';
}

/** The local base image could not be made: not root, debootstrap missing or failing, node not running in it. */
export class BaseImageError extends LblabError {
  readonly code = 'BASE_IMAGE_FAILED';
}

/** The engine refused or failed an image build or import; the message carries the build's last lines. */
export class ImageBuildError extends LblabError {
  readonly code = 'IMAGE_BUILD_FAILED';
}

/** An import in the CLI's closure that resolves to no file: the image would fail where it is loaded. */
export class UnresolvedImportError extends LblabError {
  readonly code = 'UNRESOLVED_IMPORT';

  constructor(
    readonly file: string,
    readonly specifier: string,
  ) {
    super(`${file}: import ${JSON.stringify(specifier)} resolves to no file`);
  }
}
