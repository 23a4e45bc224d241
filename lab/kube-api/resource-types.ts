import type { Converter } from './conversion.ts';
import { identityConverter } from './conversion.ts';
import { UnknownResourceTypeError } from './errors.ts';
import { groupVersion, splitApiVersion } from './objects.ts';
import type { NameRule } from './names.ts';

/**
 * One resource type as the API test server serves it: where it lives in the URL space, what it is
 * called in discovery, and the few per-type rules of kube-apiserver that a client can tell apart.
 */
export interface ResourceType {
  /** API group; "" is the core group served under /api. */
  readonly group: string;
  /** Served versions, newest first as discovery lists them; the first is the preferred one. */
  readonly versions: readonly string[];
  /** The version objects are stored in; reads and watches at another version go through the converter. */
  readonly storageVersion: string;
  readonly plural: string;
  readonly singular: string;
  readonly kind: string;
  readonly namespaced: boolean;
  /** Served with a `status` subresource: the main resource then never changes status, and create drops it. */
  readonly hasStatus: boolean;
  /**
   * What a write to `/status` may change besides status. Custom resources: nothing (the stored object is
   * kept and only status copied in). Service: everything but spec, so labels and annotations written with
   * the status stick (MetalLB writes its pool annotation that way).
   */
  readonly statusWrites: 'status-only' | 'all-but-spec';
  /**
   * Built into kube-apiserver rather than a custom resource: lists leave kind and apiVersion off their
   * items, and strategic merge patch is accepted (custom resources answer it with 415).
   */
  readonly builtin: boolean;
  /** DELETE answers with the deleted object (pods, services, service accounts) instead of a Status. */
  readonly deleteReturnsObject: boolean;
  /** What metadata.name must look like. */
  readonly nameRule: NameRule;
  /** Field selectors served beside metadata.name and metadata.namespace (e.g. spec.nodeName on pods). */
  readonly fieldSelectors: readonly string[];
  /** Dotted paths of metav1.MicroTime fields, which the real server decodes strictly (six fraction digits). */
  readonly microTimeFields: readonly string[];
  readonly shortNames: readonly string[];
}

/** What a registration must say; the rest has the defaults of a custom resource. */
export type ResourceTypeSpec = Pick<ResourceType, 'group' | 'versions' | 'plural' | 'kind' | 'namespaced'> &
  Partial<ResourceType>;

export function resourceType(spec: ResourceTypeSpec): ResourceType {
  return {
    storageVersion: spec.versions[0] ?? '',
    singular: spec.kind.toLowerCase(),
    hasStatus: false,
    statusWrites: 'status-only',
    builtin: false,
    deleteReturnsObject: false,
    nameRule: 'dns-subdomain',
    fieldSelectors: [],
    microTimeFields: [],
    shortNames: [],
    ...spec,
  };
}

/** The resource types a test server serves; extensible by registration, like CRDs on a real one. */
export class ResourceRegistry {
  private readonly types = new Map<string, ResourceType>();
  private readonly converters = new Map<string, Converter>();

  register(spec: ResourceTypeSpec): ResourceType {
    const type = resourceType(spec);
    if (!type.versions.includes(type.storageVersion))
      throw new UnknownResourceTypeError(
        `${type.plural}.${type.group}: storage version ${type.storageVersion} is not among the served versions ${type.versions.join(', ')}`,
      );
    this.types.set(key(type.group, type.plural), type);
    return type;
  }

  /** The type served at /api(s)/GROUP/VERSION/PLURAL, if any. */
  byResource(group: string, version: string, plural: string): ResourceType | undefined {
    const type = this.types.get(key(group, plural));
    return type?.versions.includes(version) ? type : undefined;
  }

  /** The type of an object with this apiVersion and kind; throws when the server does not serve it. */
  byKind(apiVersion: string, kind: string): ResourceType {
    const [group, version] = splitApiVersion(apiVersion);
    for (const type of this.types.values())
      if (type.group === group && type.kind === kind && type.versions.includes(version)) return type;
    throw new UnknownResourceTypeError(`the API test server serves no ${kind} in ${apiVersion}`);
  }

  all(): ResourceType[] {
    return [...this.types.values()];
  }

  /** Groups in registration order with their versions, newest first as in each type's list. */
  groups(): Map<string, string[]> {
    const groups = new Map<string, string[]>();
    for (const type of this.types.values()) {
      const versions = groups.get(type.group) ?? [];
      for (const v of type.versions) if (!versions.includes(v)) versions.push(v);
      groups.set(type.group, versions);
    }
    for (const versions of groups.values()) versions.sort(compareVersions);
    return groups;
  }

  /** Plugs in the conversion between versions of a type (a conversion webhook's job on a real server). */
  setConverter(group: string, plural: string, converter: Converter): void {
    this.converters.set(key(group, plural), converter);
  }

  converter(type: ResourceType): Converter {
    return this.converters.get(key(type.group, type.plural)) ?? identityConverter;
  }
}

const key = (group: string, plural: string) => `${plural}.${group}`;

/** The apiVersion of a type at one of its versions. */
export const apiVersionOf = (type: ResourceType, version: string): string =>
  groupVersion(type.group, version);

/**
 * kube-apiserver's version priority (newest first): GA before beta before alpha, higher numbers first;
 * names that are not Kubernetes versions sort last, alphabetically.
 */
export function compareVersions(a: string, b: string): number {
  const rank = (v: string): [number, number, number] => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (m === null) return [0, 0, 0];
    const stability = m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1;
    return [stability, Number(m[1]), Number(m[3] ?? 0)];
  };
  const [ra, rb] = [rank(a), rank(b)];
  for (let i = 0; i < 3; i++) if (ra[i] !== rb[i]) return (rb[i] ?? 0) - (ra[i] ?? 0);
  return a.localeCompare(b);
}
