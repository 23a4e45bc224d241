/**
 * MetalLB's configuration from the Kubernetes API: the six metallb.io kinds (BGPPeer as v1beta2) and
 * the Secrets in lblab's namespace, listed and watched by supervised informers and validated whole by
 * the same loader as `lblab config validate`. A configuration the loader refuses, or one naming a Secret
 * that does not exist, never replaces the one in force: it is reported (a Warning Event per distinct
 * error, the component's ConfigurationState, onRejected for the metrics) and the last good one stays,
 * so a typo in one pool neither crash-loops the agents nor withdraws any address.
 */
import { CoreV1Api, CustomObjectsApi, type V1Secret } from '@kubernetes/client-node';
import {
  formatIssue,
  loadObjects,
  objectLabel,
  type ConfigIssue,
  type LbConfig,
  type NodeLabels,
} from '../../config/index.ts';
import type { EventRecorder, InvolvedObject } from '../events/event-recorder.ts';
import { group } from '../metallb/kinds.ts';
import {
  byKindAndName,
  configKinds,
  loaderSecret,
  referencedSecrets,
  withType,
  type ListedObject,
} from './config-objects.ts';
import { ConfigurationStateWriter, type ConfigComponent } from './configuration-state.ts';
import {
  InformerSet,
  type InformerHealth,
  type InformerSetOptions,
  type WatchedKind,
} from './informer-set.ts';

export type { ConfigComponent };

export interface KubeConfigSourceOptions extends InformerSetOptions {
  namespace: string;
  component: ConfigComponent;
  recorder?: EventRecorder;
  /** The cluster's nodes, when known: MetalLB judges node-selector overlaps against them. */
  nodes?: () => readonly NodeLabels[];
  /** Wall-clock ms at which `clock.now()` reads 0 (ConfigurationState times); default the clock's `epochMs`. */
  clockEpochMs?: number;
}

/** Warning Event reason for a refused configuration (MetalLB only logs it; kubectl describe shows this). */
export const configurationRejectedReason = 'ConfigurationRejected';

const secretsKind = 'secrets';

export class KubeConfigSource {
  private config: LbConfig | undefined;
  private configKey: string | undefined;
  private rejected: string | undefined;
  /** Error texts already recorded as Events since the configuration was last good. */
  private readonly recorded = new Set<string>();
  private readonly changeListeners = new Set<(config: LbConfig) => void>();
  private readonly rejectedListeners = new Set<(errors: readonly ConfigIssue[]) => void>();
  private readonly secretListeners = new Map<string, Set<(s: V1Secret | undefined) => void>>();
  private readonly secretVersions = new Map<string, string | undefined>();
  private objects: ListedObject[] = [];
  private readonly stateWriter: ConfigurationStateWriter;

  private constructor(
    private readonly o: KubeConfigSourceOptions,
    private readonly informers: InformerSet,
  ) {
    this.stateWriter = new ConfigurationStateWriter(o);
    informers.onSettled(() => this.settled());
  }

  /**
   * Informers on the six metallb.io config kinds (BGPPeer as v1beta2) and Secrets in `namespace`;
   * resolves once all have listed and the first configuration was judged.
   */
  static async start(o: KubeConfigSourceOptions): Promise<KubeConfigSource> {
    const custom = o.kc.makeApiClient(CustomObjectsApi);
    const core = o.kc.makeApiClient(CoreV1Api);
    const { namespace } = o;
    const watched: WatchedKind[] = configKinds.map((k) => ({
      name: `${group} ${k.plural}`,
      path: `/apis/${group}/${k.version}/namespaces/${namespace}/${k.plural}`,
      list: () =>
        custom.listNamespacedCustomObject({ group, version: k.version, namespace, plural: k.plural }),
    }));
    watched.push({
      name: secretsKind,
      path: `/api/v1/namespaces/${namespace}/secrets`,
      list: () => core.listNamespacedSecret({ namespace }),
    });
    const informers = new InformerSet(o, watched);
    await informers.start();
    const source = new KubeConfigSource(o, informers);
    source.settled();
    return source;
  }

  /** The last good configuration; undefined until one was valid. */
  current(): LbConfig | undefined {
    return this.config;
  }

  state(): 'loaded' | 'stale' | 'none' {
    return this.config === undefined ? 'none' : this.rejected === undefined ? 'loaded' : 'stale';
  }

  /** Each new good configuration, and the good one again after a rejection (metrics: no longer stale). */
  onChange(listener: (config: LbConfig) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  onRejected(listener: (errors: readonly ConfigIssue[]) => void): () => void {
    this.rejectedListeners.add(listener);
    return () => this.rejectedListeners.delete(listener);
  }

  /**
   * The metallb.io objects as last listed (JSON as the API returns them), then every Secret in the
   * namespace reduced to what the loader reads (type and password): what the webhooks' ResourceProvider
   * returns, so a new BGPPeer naming an existing Secret is judged with it, and no other Secret data
   * (binary keys, certificates) reaches the loader.
   */
  resources(): readonly unknown[] {
    return [...this.objects, ...this.informers.list<V1Secret>(secretsKind).map(loaderSecret)];
  }

  /** A Secret in lblab's namespace from the informer's cache. */
  secret(name: string): V1Secret | undefined {
    return this.informers.list<V1Secret>(secretsKind).find((s) => s.metadata?.name === name);
  }

  /** Called with the Secret each time it is created, changed or deleted (undefined). */
  onSecret(name: string, listener: (s: V1Secret | undefined) => void): () => void {
    let set = this.secretListeners.get(name);
    if (set === undefined) {
      set = new Set();
      this.secretListeners.set(name, set);
      this.secretVersions.set(name, this.secret(name)?.metadata?.resourceVersion);
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Re-validate now (e.g. the Nodes changed and node selectors matter). */
  revalidate(): void {
    this.judge();
  }

  close(): void {
    this.changeListeners.clear();
    this.rejectedListeners.clear();
    this.secretListeners.clear();
    this.stateWriter.close();
    this.informers.close();
  }

  health(): InformerHealth[] {
    return this.informers.health();
  }

  /** Resolves when the ConfigurationState writes so far are done (tests). */
  idle(): Promise<void> {
    return this.stateWriter.idle();
  }

  private settled(): void {
    this.objects = configKinds
      .flatMap((k) => this.informers.list<ListedObject>(`${group} ${k.plural}`).map((o) => withType(k, o)))
      .sort(byKindAndName);
    this.judge();
    this.notifySecrets();
  }

  private judge(): void {
    const wanted = referencedSecrets(this.objects);
    const secrets = this.informers
      .list<V1Secret>(secretsKind)
      .filter((s) => wanted.has(s.metadata?.name ?? ''))
      .map(loaderSecret);
    const nodes = this.o.nodes?.();
    const result = loadObjects(
      [...this.objects, ...secrets].map((value) => ({ label: objectLabel(value), value })),
      { namespace: this.o.namespace, ...(nodes === undefined ? {} : { nodes }) },
    );
    if (result.ok) this.accepted(result.config);
    else this.refused(result.errors);
  }

  private accepted(config: LbConfig): void {
    const key = fingerprint(config);
    const wasRejected = this.rejected !== undefined;
    this.rejected = undefined;
    this.recorded.clear();
    this.stateWriter.set(true, []);
    if (key === this.configKey && !wasRejected) return;
    this.o.log(key === this.configKey ? 'configuration valid again' : 'configuration loaded');
    this.config = config;
    this.configKey = key;
    for (const l of this.changeListeners) l(config);
  }

  private refused(errors: readonly ConfigIssue[]): void {
    const texts = errors.map(formatIssue);
    const key = JSON.stringify(texts);
    this.stateWriter.set(false, texts);
    if (key === this.rejected) return;
    this.rejected = key;
    const kept = this.config === undefined ? 'no configuration is in force yet' : 'the last good one stays';
    this.o.log(`configuration refused (${kept}):\n  ${texts.join('\n  ')}`);
    errors.forEach((issue, i) => {
      const text = texts[i]!;
      if (this.recorded.has(text)) return;
      this.recorded.add(text);
      this.o.recorder?.record({
        type: 'Warning',
        reason: configurationRejectedReason,
        message: `${text} (${kept})`,
        involved: this.involved(issue),
      });
    });
    for (const l of this.rejectedListeners) l(errors);
  }

  /** The object an error is about, so `kubectl describe` on it shows the Event. */
  private involved(issue: ConfigIssue): InvolvedObject {
    const { namespace } = this.o;
    const found = this.objects.find((o) => o.kind === issue.kind && o.metadata?.name === issue.name);
    if (found !== undefined && issue.name !== undefined) {
      return {
        apiVersion: found.apiVersion!,
        kind: found.kind!,
        namespace,
        name: issue.name,
        ...(found.metadata?.uid === undefined ? {} : { uid: found.metadata.uid }),
      };
    }
    if (issue.kind === 'Secret' && issue.name !== undefined) {
      return { apiVersion: 'v1', kind: 'Secret', namespace, name: issue.name };
    }
    return {
      apiVersion: `${group}/v1beta1`,
      kind: 'ConfigurationState',
      namespace,
      name: this.stateWriter.objectName,
    };
  }

  private notifySecrets(): void {
    for (const [name, listeners] of this.secretListeners) {
      const s = this.secret(name);
      const version = s?.metadata?.resourceVersion;
      if (version === this.secretVersions.get(name)) continue;
      this.secretVersions.set(name, version);
      for (const l of listeners) l(s);
    }
  }
}

/** The configuration as text for "did it change": Maps and byte arrays spelled out (JSON drops Maps). */
function fingerprint(config: LbConfig): string {
  return JSON.stringify(config, (_key, value: unknown) =>
    value instanceof Map
      ? [...value]
      : value instanceof Set
        ? [...value]
        : value instanceof Uint8Array
          ? Array.from(value)
          : typeof value === 'bigint'
            ? value.toString()
            : value,
  );
}
