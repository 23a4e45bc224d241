import { parse as parseYaml } from 'yaml';
import { JsonPatchError } from './errors.ts';
import { collectGarbage } from './garbage-collector.ts';
import { applyJsonPatch } from './json-patch.ts';
import { mergePatch } from './merge-patch.ts';
import { validateMetadata } from './metadata-validation.ts';
import { decodeMicroTimes } from './micro-time.ts';
import { generateName, validateName } from './names.ts';
import type { Json, KubeObject } from './objects.ts';
import { canonicalJson, copy, isJsonObject } from './objects.ts';
import type { ResourceRegistry, ResourceType } from './resource-types.ts';
import { apiVersionOf } from './resource-types.ts';
import type { ObjectFilter } from './selectors.ts';
import type { FieldError, Status } from './status.ts';
import {
  alreadyExists,
  badRequest,
  conflict,
  deleted,
  failure,
  internalError,
  invalid,
  notFound,
  unsupportedMediaType,
} from './status.ts';
import { ApiStatusError } from './errors.ts';
import type { ObjectStore } from './store.ts';

export interface OperationsOptions {
  /** Wall-clock time for creationTimestamp. */
  readonly now: () => Date;
  /** Randomness for generateName suffixes. */
  readonly random: () => number;
  /** Per-type defaulting beyond metadata, keyed `group/plural` (core types: `/services`). */
  readonly strategies: ReadonlyMap<string, TypeStrategy>;
}

/**
 * kube-apiserver's per-type create and update strategy, for the types whose defaults or checks clients
 * meet. Each returns field errors for a 422 (and may throw ApiStatusError for a body upstream cannot
 * decode).
 */
export interface TypeStrategy {
  /** Defaults and checks a new object in place. */
  prepareCreate(obj: KubeObject): FieldError[];
  /** Completes and checks an update in place, given the stored object. */
  prepareUpdate(next: KubeObject, current: KubeObject): FieldError[];
}

/** The patch content types kube-apiserver takes; custom resources refuse strategic merge with 415. */
export const patchTypes = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
} as const;

export interface PatchOptions {
  readonly subresource?: 'status';
  readonly fieldManager?: string;
  readonly force?: boolean;
}

export interface ListResult {
  kind: string;
  apiVersion: string;
  metadata: { resourceVersion: string };
  items: KubeObject[];
}

/**
 * What kube-apiserver does with each verb, on top of the store: defaulting and checks of the body,
 * name generation and validation, server-managed metadata, the status subresource's rules,
 * optimistic concurrency on resourceVersion, no-op writes that change nothing, and conversion between
 * served versions. Every method takes and returns objects in the request's version and throws
 * ApiStatusError with the Status the real server would answer.
 */
export class ResourceOperations {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly store: ObjectStore,
    private readonly options: OperationsOptions,
  ) {}

  async get(type: ResourceType, version: string, namespace: string, name: string): Promise<KubeObject> {
    const found = this.store.get(type, namespace, name);
    if (found === undefined) throw notFound(type, name);
    return this.present(type, version, found);
  }

  async list(
    type: ResourceType,
    version: string,
    namespace: string | undefined,
    filter: ObjectFilter,
  ): Promise<ListResult> {
    const resourceVersion = String(this.store.resourceVersion);
    const stored = this.store.list(type, namespace).filter(filter);
    const items = await this.convert(type, stored, version);
    return {
      kind: `${type.kind}List`,
      apiVersion: apiVersionOf(type, version),
      metadata: { resourceVersion },
      // Built-in types' list items carry no kind or apiVersion on the wire; custom resources' do.
      items: type.builtin ? items.map(({ kind: _k, apiVersion: _a, ...rest }) => rest as KubeObject) : items,
    };
  }

  async create(type: ResourceType, version: string, namespace: string, body: unknown): Promise<KubeObject> {
    const obj = this.decode(type, version, body);
    this.placeInNamespace(type, namespace, obj);
    if (type.namespaced && this.store.get(this.namespaces(), '', namespace) === undefined)
      // The NamespaceLifecycle admission plugin: nothing is created in a namespace that does not exist.
      throw notFound(this.namespaces(), namespace);
    if (!obj.metadata.name && obj.metadata.generateName)
      obj.metadata.name = generateName(obj.metadata.generateName, this.options.random);
    const name = obj.metadata.name ?? '';
    if (name === '')
      throw invalid(type, '', [
        {
          field: 'metadata.name',
          type: 'FieldValueRequired',
          message: 'Required value: name or generateName is required',
        },
      ]);
    const nameErrors = validateName(name, type.nameRule);
    if (nameErrors.length > 0) throw invalid(type, name, nameErrors);
    if (type.hasStatus) delete obj.status;
    this.check(type, name, validateMetadata(obj.metadata));
    this.check(type, name, this.strategy(type)?.prepareCreate(obj));
    const stored = await this.toStorage(type, this.withNewMetadata(obj));
    if (this.store.get(type, namespace, name) !== undefined) throw alreadyExists(type, name);
    return this.present(type, version, this.store.put(type, stored));
  }

  async update(
    type: ResourceType,
    version: string,
    namespace: string,
    name: string,
    body: unknown,
    subresource?: 'status',
  ): Promise<KubeObject> {
    const obj = this.decode(type, version, body);
    if (obj.metadata.name !== name)
      throw badRequest(
        `the name of the object (${obj.metadata.name ?? ''}) does not match the name on the URL (${name})`,
      );
    this.placeInNamespace(type, namespace, obj);
    const incoming = await this.toStorage(type, obj);
    // From here to put() nothing awaits, so no other write can slip in between the check and the write.
    const current = this.store.get(type, namespace, name);
    if (current === undefined) throw notFound(type, name);
    const wanted = obj.metadata.resourceVersion;
    if (wanted !== undefined && wanted !== '' && wanted !== current.metadata.resourceVersion)
      throw conflict(type, name);
    const next = this.nextObject(type, current, incoming, subresource);
    this.check(type, name, validateMetadata(next.metadata));
    if (subresource === undefined) this.check(type, name, this.strategy(type)?.prepareUpdate(next, current));
    if (sameContent(next, current)) return this.present(type, version, current);
    return this.present(type, version, this.store.put(type, next));
  }

  /** `created` is true when a server-side apply created the object (the HTTP answer is then 201). */
  async patch(
    type: ResourceType,
    version: string,
    namespace: string,
    name: string,
    contentType: string,
    raw: string,
    options: PatchOptions,
  ): Promise<{ object: KubeObject; created: boolean }> {
    const accepted = type.builtin
      ? Object.values(patchTypes)
      : Object.values(patchTypes).filter((t) => t !== patchTypes.strategic);
    if (!accepted.includes(contentType as (typeof accepted)[number]))
      throw unsupportedMediaType(contentType, accepted);
    if (contentType !== patchTypes.apply && options.force !== undefined)
      throw new ApiStatusError(
        failure(422, 'Invalid', 'force: Forbidden: may not be specified for non-apply patch', {}),
      );
    const patch = parsePatch(contentType, raw);
    const stored = this.store.get(type, namespace, name);
    if (contentType === patchTypes.apply) {
      if (!options.fieldManager)
        throw new ApiStatusError(
          failure(
            422,
            'Invalid',
            'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
            {},
          ),
        );
      if (stored === undefined) {
        if (options.subresource === 'status') throw notFound(type, name);
        const given = isJsonObject(patch) && isJsonObject(patch.metadata) ? patch.metadata.name : undefined;
        if (given !== name)
          throw badRequest(
            `the name of the object (${String(given ?? '')}) does not match the name on the URL (${name})`,
          );
        return { object: await this.create(type, version, namespace, patch), created: true };
      }
    }
    if (stored === undefined) throw notFound(type, name);
    const current = await this.present(type, version, stored);
    const patched = contentType === patchTypes.json ? applyJson(current, patch) : mergePatch(current, patch);
    return {
      object: await this.update(type, version, namespace, name, patched, options.subresource),
      created: false,
    };
  }

  /** The deleted object for types that answer with it, otherwise a Success Status. */
  async delete(
    type: ResourceType,
    version: string,
    namespace: string,
    name: string,
    options: unknown,
  ): Promise<KubeObject | Status> {
    const current = this.store.get(type, namespace, name);
    if (current === undefined) throw notFound(type, name);
    const preconditions =
      isJsonObject(options) && isJsonObject(options.preconditions) ? options.preconditions : {};
    for (const field of ['uid', 'resourceVersion'] as const) {
      const want = preconditions[field];
      if (typeof want === 'string' && want !== current.metadata[field])
        throw new ApiStatusError(
          failure(
            409,
            'Conflict',
            `Operation cannot be fulfilled on ${type.plural} "${name}": Precondition failed: ${field} in precondition: ` +
              `${want}, ${field} in object meta: ${current.metadata[field] ?? ''}`,
            { name, kind: type.plural },
          ),
        );
    }
    const gone = this.remove(type, namespace, name, propagationPolicy(options)) ?? current;
    return type.deleteReturnsObject
      ? this.present(type, version, gone)
      : deleted(type, name, gone.metadata.uid);
  }

  /** DELETE on a collection: every object the filter selects goes; answers with the list of them. */
  async deleteCollection(
    type: ResourceType,
    version: string,
    namespace: string | undefined,
    filter: ObjectFilter,
  ): Promise<ListResult> {
    const doomed = this.store.list(type, namespace).filter(filter);
    const gone = doomed.flatMap(
      (o) => this.remove(type, o.metadata.namespace ?? '', o.metadata.name ?? '', 'Background') ?? [],
    );
    const items = await this.convert(type, gone, version);
    return {
      kind: `${type.kind}List`,
      apiVersion: apiVersionOf(type, version),
      metadata: { resourceVersion: String(this.store.resourceVersion) },
      items,
    };
  }

  /**
   * Stores an object as a test wants it, bypassing the API's rules: status is kept, no namespace needs
   * to exist and any stored version is overwritten. Watches see it as ADDED or MODIFIED all the same.
   */
  async seed(object: KubeObject): Promise<KubeObject> {
    const type = this.registry.byKind(object.apiVersion ?? '', object.kind ?? '');
    const version = (object.apiVersion ?? '').split('/').pop() ?? '';
    const obj = this.decode(type, version, object);
    const namespace = type.namespaced ? (obj.metadata.namespace ?? 'default') : '';
    this.placeInNamespace(type, namespace, obj);
    if (!obj.metadata.name && obj.metadata.generateName)
      obj.metadata.name = generateName(obj.metadata.generateName, this.options.random);
    const name = obj.metadata.name ?? '';
    if (name === '') throw badRequest(`seeding a ${type.kind} needs metadata.name or metadata.generateName`);
    const stored = await this.toStorage(type, obj);
    const current = this.store.get(type, namespace, name);
    const strategy = this.strategy(type);
    this.check(type, name, validateMetadata(stored.metadata));
    this.check(
      type,
      name,
      current === undefined ? strategy?.prepareCreate(stored) : strategy?.prepareUpdate(stored, current),
    );
    const next =
      current === undefined
        ? this.withNewMetadata(stored)
        : {
            ...stored,
            metadata: {
              ...stored.metadata,
              ...managedMetadata(current),
              generation: nextGeneration(type, current, stored),
            },
          };
    if (current !== undefined && sameContent(next, current)) return this.present(type, version, current);
    return this.present(type, version, this.store.put(type, next));
  }

  /** The stored object as the request's version shows it. */
  async present(type: ResourceType, version: string, stored: KubeObject): Promise<KubeObject> {
    const [converted] = await this.convert(type, [stored], version);
    return converted ?? stored;
  }

  /** Stored objects in another of the type's versions, through the type's converter. */
  async convert(type: ResourceType, objects: readonly KubeObject[], version: string): Promise<KubeObject[]> {
    const apiVersion = apiVersionOf(type, version);
    const stale = objects.filter((o) => o.apiVersion !== apiVersion);
    if (stale.length === 0) return objects.map((o) => ({ ...o, kind: type.kind, apiVersion }));
    let converted: readonly KubeObject[];
    try {
      converted = await this.registry.converter(type)(copy(objects), apiVersion);
    } catch (e) {
      throw internalError(
        `conversion webhook for ${type.kind}.${type.group} to ${apiVersion} failed: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    if (converted.length !== objects.length || converted.some((o) => o.apiVersion !== apiVersion))
      throw internalError(
        `conversion of ${type.kind}.${type.group} to ${apiVersion} returned the wrong objects`,
      );
    return converted.map((o) => ({ ...o, kind: type.kind }));
  }

  private toStorage(type: ResourceType, obj: KubeObject): Promise<KubeObject> {
    return this.present(type, type.storageVersion, obj);
  }

  /** Body checks of the HTTP handlers: shape, apiVersion and kind (defaulted from the URL), MicroTimes. */
  private decode(type: ResourceType, version: string, body: unknown): KubeObject {
    if (!isJsonObject(body)) throw badRequest('the object provided is unrecognized (must be of type Object)');
    const obj = copy(body) as Json;
    const apiVersion = apiVersionOf(type, version);
    if (obj.apiVersion !== undefined && obj.apiVersion !== apiVersion)
      throw badRequest(
        `the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${apiVersion})`,
      );
    if (obj.kind !== undefined && obj.kind !== type.kind)
      throw badRequest(
        `the kind in the data (${String(obj.kind)}) does not match the expected kind (${type.kind})`,
      );
    if (obj.metadata !== undefined && !isJsonObject(obj.metadata))
      throw badRequest(
        `${type.kind} in version "${version}" cannot be handled as a ${type.kind}: metadata is not an object`,
      );
    const decoded: KubeObject = {
      ...obj,
      apiVersion,
      kind: type.kind,
      metadata: { ...(obj.metadata as Json) },
    };
    decodeMicroTimes(type, version, decoded);
    return decoded;
  }

  /** Upstream's EnsureObjectNamespaceMatchesRequestNamespace. */
  private placeInNamespace(type: ResourceType, namespace: string, obj: KubeObject): void {
    if (!type.namespaced) {
      delete obj.metadata.namespace;
      return;
    }
    const given = obj.metadata.namespace;
    if (given !== undefined && given !== '' && given !== namespace)
      throw badRequest(
        'the namespace of the provided object does not match the namespace sent on the request',
      );
    obj.metadata.namespace = namespace;
  }

  private withNewMetadata(obj: KubeObject): KubeObject {
    const { resourceVersion: _rv, deletionTimestamp: _dt, ...metadata } = obj.metadata;
    return {
      ...obj,
      metadata: {
        ...metadata,
        uid: globalThis.crypto.randomUUID(),
        // metav1.Time: RFC 3339 in whole seconds.
        creationTimestamp: this.options
          .now()
          .toISOString()
          .replace(/\.\d+Z$/, 'Z'),
        generation: 1,
      },
    };
  }

  /** What an update stores: the body under the status subresource's rules, with managed metadata kept. */
  private nextObject(
    type: ResourceType,
    current: KubeObject,
    body: KubeObject,
    subresource?: 'status',
  ): KubeObject {
    let next: KubeObject;
    if (subresource === 'status' && type.statusWrites === 'status-only') {
      next = copy(current);
      if (body.status === undefined) delete next.status;
      else next.status = body.status;
      return next;
    }
    next = { ...body, metadata: { ...body.metadata, ...managedMetadata(current) } };
    const kept = subresource === 'status' ? 'spec' : type.hasStatus ? 'status' : undefined;
    if (kept !== undefined) {
      if (current[kept] === undefined) delete next[kept];
      else next[kept] = current[kept];
    }
    next.metadata.generation = nextGeneration(type, current, next);
    return next;
  }

  private strategy(type: ResourceType): TypeStrategy | undefined {
    return this.options.strategies.get(`${type.group}/${type.plural}`);
  }

  private check(type: ResourceType, name: string, errors: readonly FieldError[] | undefined): void {
    if (errors !== undefined && errors.length > 0) throw invalid(type, name, errors);
  }

  private namespaces(): ResourceType {
    return this.registry.byKind('v1', 'Namespace');
  }

  /**
   * Removes an object with what follows a delete on a real cluster: the namespace controller empties a
   * deleted namespace, the garbage collector removes dependents. Returns the object as deleted.
   */
  remove(
    type: ResourceType,
    namespace: string,
    name: string,
    policy: 'Background' | 'Orphan' = 'Background',
  ): KubeObject | undefined {
    if (type === this.namespaces())
      for (const t of this.registry.all().filter((t) => t.namespaced))
        for (const o of this.store.list(t, name)) this.remove(t, name, o.metadata.name ?? '');
    const gone = this.store.remove(type, namespace, name);
    if (gone !== undefined) collectGarbage(this.registry, this.store, gone, policy);
    return gone;
  }
}

/** Server-managed metadata an update cannot change. */
function managedMetadata(current: KubeObject): Partial<KubeObject['metadata']> {
  const { uid, creationTimestamp, generation, name, namespace, resourceVersion } = current.metadata;
  return { uid, creationTimestamp, generation, name, namespace, resourceVersion };
}

/** metadata.generation counts changes to everything but metadata (and status, when it is a subresource). */
function nextGeneration(type: ResourceType, current: KubeObject, next: KubeObject): number {
  const desired = (o: KubeObject) => {
    const { metadata: _m, status, ...rest } = o;
    return canonicalJson(type.hasStatus ? rest : { ...rest, status });
  };
  const generation = current.metadata.generation ?? 1;
  return desired(current) === desired(next) ? generation : generation + 1;
}

/** A write that changes nothing is not written: no new resourceVersion, no watch event (as etcd3). */
function sameContent(next: KubeObject, current: KubeObject): boolean {
  const strip = (o: KubeObject) => ({ ...o, metadata: { ...o.metadata, resourceVersion: undefined } });
  return canonicalJson(strip(next)) === canonicalJson(strip(current));
}

function parsePatch(contentType: string, raw: string): unknown {
  try {
    return contentType === patchTypes.apply ? parseYaml(raw) : JSON.parse(raw);
  } catch (e) {
    throw badRequest(`error decoding patch: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function applyJson(current: KubeObject, patch: unknown): unknown {
  try {
    return applyJsonPatch(current, patch);
  } catch (e) {
    if (e instanceof JsonPatchError) throw new ApiStatusError(failure(422, 'Invalid', e.message, {}));
    throw e;
  }
}

/** DeleteOptions.propagationPolicy (body or query); Foreground is treated as Background. */
function propagationPolicy(options: unknown): 'Background' | 'Orphan' {
  return isJsonObject(options) && options.propagationPolicy === 'Orphan' ? 'Orphan' : 'Background';
}
