import type { KubeObject } from './objects.ts';

/**
 * Converts objects of one resource type to another of its served versions, as a CRD's conversion
 * webhook does (ConversionReview: a batch of objects and the desired apiVersion). It may be async, so a
 * real webhook can be plugged in. The result must keep each object's metadata and carry the new
 * apiVersion; throwing makes the request fail with 500, as a failing webhook does.
 */
export type Converter = (
  objects: readonly KubeObject[],
  desiredApiVersion: string,
) => readonly KubeObject[] | Promise<readonly KubeObject[]>;

/** The default, the CRD's `strategy: None`: only apiVersion changes. */
export const identityConverter: Converter = (objects, desiredApiVersion) =>
  objects.map((o) => ({ ...o, apiVersion: desiredApiVersion }));
