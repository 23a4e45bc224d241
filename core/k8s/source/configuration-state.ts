/**
 * A component's ConfigurationState object (MetalLB ≥ 0.15.3): `controller` or `speaker-<node>` in
 * lblab's namespace, saying whether it accepted the configuration and why not. Created when missing,
 * then its status replaced by a PUT of /status with the resourceVersion last seen (custom resources
 * refuse unconditional updates). Writes run one at a time, the newest wanted state wins, a failed write
 * is retried with backoff, and a 404 for the type itself (the CRD is not installed: an older MetalLB's
 * CRDs) is remembered, so such a cluster is not asked again.
 */
import { CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import type { Clock, Timer } from '../../runtime/clock.ts';
import { clockEpoch, describeApiError, isApiCode, rfc3339Seconds } from '../api-time-and-errors.ts';
import { group } from '../metallb/kinds.ts';
import {
  conditionTypes,
  configurationStateLabels,
  configurationStateNames,
  type ConfigurationStateStatus,
} from '../metallb/status.ts';

export type ConfigComponent = { agent: 'controller' } | { agent: 'speaker'; node: string };

export interface StateOptions {
  kc: KubeConfig;
  namespace: string;
  component: ConfigComponent;
  clock: Clock;
  /** Wall-clock ms at which `clock.now()` reads 0; default the clock's own `epochMs`. */
  clockEpochMs?: number;
  log: (line: string) => void;
}

const plural = 'configurationstates';
const version = 'v1beta1';
/** errorSummary is for `kubectl get`; the Events and the log carry every error in full. */
const maxSummary = 4096;

interface StateObject {
  metadata: { name: string; namespace: string; resourceVersion?: string; labels?: Record<string, string> };
  status?: ConfigurationStateStatus;
  [field: string]: unknown;
}

export class ConfigurationStateWriter {
  private readonly api: CustomObjectsApi;
  private readonly name: string;
  private readonly epochMs: number;
  private object: StateObject | undefined;
  /** The state to write next; undefined when the API already holds the newest. */
  private wanted: { valid: boolean; errors: readonly string[] } | undefined;
  private written: string | undefined;
  private lastTransitionMs: number | undefined;
  private writing: Promise<void> | undefined;
  private retry: Timer | undefined;
  private failures = 0;
  private typeMissing = false;
  private closed = false;

  constructor(private readonly o: StateOptions) {
    this.api = o.kc.makeApiClient(CustomObjectsApi);
    this.name =
      o.component.agent === 'controller'
        ? configurationStateNames.controller
        : configurationStateNames.speaker(o.component.node);
    this.epochMs = clockEpoch(o.clock, o.clockEpochMs);
  }

  /** The object's name, for Events about the configuration as a whole. */
  get objectName(): string {
    return this.name;
  }

  /** Whether the ConfigurationState type was found missing (and is no longer asked for). */
  get unsupported(): boolean {
    return this.typeMissing;
  }

  set(valid: boolean, errors: readonly string[]): void {
    if (this.typeMissing || this.closed) return;
    const key = JSON.stringify([valid, errors]);
    if (key === this.written && this.wanted === undefined) return;
    this.wanted = { valid, errors };
    this.kick();
  }

  /** Resolves when no write is running (tests). */
  async idle(): Promise<void> {
    while (this.writing !== undefined) await this.writing;
  }

  close(): void {
    this.closed = true;
    this.retry?.cancel();
  }

  private kick(): void {
    if (this.writing !== undefined || this.retry !== undefined || this.closed) return;
    this.writing = this.writeWanted().finally(() => {
      this.writing = undefined;
      if (this.wanted !== undefined && this.retry === undefined) this.kick();
    });
  }

  private async writeWanted(): Promise<void> {
    const wanted = this.wanted;
    if (wanted === undefined) return;
    this.wanted = undefined;
    const key = JSON.stringify([wanted.valid, wanted.errors]);
    try {
      await this.put(wanted.valid, wanted.errors);
      this.written = key;
      this.failures = 0;
    } catch (err) {
      if (isApiCode(err, 404) && this.object === undefined) {
        this.typeMissing = true;
        this.o.log(
          `ConfigurationState: the type is not served (MetalLB's CRDs before 0.15.3?); not writing it`,
        );
        return;
      }
      this.wanted ??= wanted;
      const ms = Math.min(30_000, 500 * 2 ** this.failures++);
      this.o.log(`ConfigurationState ${this.name}: ${describeApiError(err)}; trying again in ${ms} ms`);
      this.retry = this.o.clock.setTimer('configurationstate: retry', ms, () => {
        this.retry = undefined;
        this.kick();
      });
    }
  }

  private async put(valid: boolean, errors: readonly string[]): Promise<void> {
    const object = this.object ?? (await this.createOrRead());
    const status = this.status(valid, errors);
    try {
      this.object = await this.replaceStatus({ ...object, status });
    } catch (err) {
      // Changed (409) or deleted (404) by someone else: read it again (or create it) and write once more.
      if (!isApiCode(err, 409) && !isApiCode(err, 404)) throw err;
      this.object = undefined;
      const again = await this.createOrRead();
      this.object = await this.replaceStatus({ ...again, status });
    }
  }

  private async createOrRead(): Promise<StateObject> {
    const { namespace } = this.o;
    const labels: Record<string, string> = {
      [configurationStateLabels.componentType]: this.o.component.agent,
      ...(this.o.component.agent === 'speaker'
        ? { [configurationStateLabels.nodeName]: this.o.component.node }
        : {}),
    };
    const body = {
      apiVersion: `${group}/${version}`,
      kind: 'ConfigurationState',
      metadata: { name: this.name, namespace, labels },
    };
    try {
      return (await this.api.createNamespacedCustomObject({
        group,
        version,
        namespace,
        plural,
        body,
      })) as StateObject;
    } catch (err) {
      if (!isApiCode(err, 409)) throw err;
      const found = (await this.api.getNamespacedCustomObject({
        group,
        version,
        namespace,
        plural,
        name: this.name,
      })) as StateObject;
      this.object = found;
      return found;
    }
  }

  private async replaceStatus(body: StateObject): Promise<StateObject> {
    const { namespace } = this.o;
    return (await this.api.replaceNamespacedCustomObjectStatus({
      group,
      version,
      namespace,
      plural,
      name: this.name,
      body,
    })) as StateObject;
  }

  private status(valid: boolean, errors: readonly string[]): ConfigurationStateStatus {
    const before = this.object?.status?.result;
    const result = valid ? 'Valid' : 'Invalid';
    if (this.lastTransitionMs === undefined || before !== result) {
      this.lastTransitionMs = this.epochMs + this.o.clock.now();
    }
    const summary = errors.join('\n');
    const message = valid ? 'the configuration is in force' : summary;
    return {
      result,
      errorSummary: summary.length > maxSummary ? `${summary.slice(0, maxSummary - 1)}…` : summary,
      conditions: [
        {
          type: conditionTypes[this.o.component.agent],
          status: valid ? 'True' : 'False',
          reason: valid ? 'ConfigValid' : 'ConfigError',
          message: message.length > 32768 ? `${message.slice(0, 32767)}…` : message,
          lastTransitionTime: rfc3339Seconds(this.lastTransitionMs),
        },
      ],
    };
  }
}
