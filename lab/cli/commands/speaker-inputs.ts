/**
 * Where `lblab speaker` learns the cluster, its configuration and the membership key: files (--cluster,
 * --config, --membership-key-file) or the Kubernetes API (speaker-inputs-kube.ts). The speaker itself
 * runs the same either way.
 */
import type { ClusterSource } from '../../../core/cluster/source.ts';
import type { LbConfig } from '../../../core/config/index.ts';
import type { Clock } from '../../../core/runtime/clock.ts';
import { FileClusterSource } from '../../../core/cluster/file-source.ts';
import { watchFile } from '../../../core/runtime/watch-file.ts';
import type { Announcements } from '../../../core/k8s/speaker/announcements.ts';
import { exitCodes } from '../exit-codes.ts';
import { loadConfigOrExitCode } from '../load-config.ts';
import type { Output } from '../output.ts';
import { readMembershipKey } from './membership-key.ts';

export interface SpeakerInputs {
  /** "cluster file x, config files y" / "Kubernetes API …, namespace …", for the start-up line. */
  describe: string;
  cluster: ClusterSource;
  /** The configuration in force; undefined until the first good one (Kubernetes only). */
  config(): LbConfig | undefined;
  /** Each new good configuration. */
  onConfig(listener: (config: LbConfig) => void): () => void;
  /** A configuration that was refused (the previous one stays in force). */
  onRejected(listener: () => void): () => void;
  /** The membership key at start; undefined: membership is not authenticated. */
  key: Uint8Array | undefined;
  /** Hands each later key to `rotate`; returns how to stop. */
  followKey(rotate: (key: Uint8Array) => void): () => void;
  /** Kubernetes only: where the speaker's announcements are reported (status objects, Events). */
  reports?: readonly { update(a: Announcements): void }[];
  close(): Promise<void>;
}

/** Reads and validates the files; the exit code to stop with when they are not usable. */
export async function fileInputs(
  o: { cluster: string; config: string[]; membershipKeyFile?: string | undefined },
  clock: Clock,
  out: Output,
): Promise<SpeakerInputs | number> {
  const fail = (message: string) => (out.stderr(`lblab speaker: ${message}`), exitCodes.error);
  let config = await loadConfigOrExitCode('speaker', o.config, out);
  if (typeof config === 'number') return config;
  let key: Uint8Array | undefined;
  if (o.membershipKeyFile !== undefined) {
    try {
      key = await readMembershipKey(o.membershipKeyFile);
    } catch (err) {
      return fail((err as Error).message);
    }
  }
  let cluster: FileClusterSource;
  try {
    cluster = await FileClusterSource.open(o.cluster, clock);
  } catch (err) {
    return fail((err as Error).message);
  }
  const configListeners = new Set<(c: LbConfig) => void>();
  const rejectedListeners = new Set<() => void>();
  const stops = o.config.map((file) =>
    watchFile(file, clock, 50, () => {
      void loadConfigOrExitCode('speaker', o.config, out).then((next) => {
        if (typeof next === 'number') {
          out.stderr('lblab speaker: configuration rejected, keeping the previous one');
          for (const l of rejectedListeners) l();
          return;
        }
        config = next;
        for (const l of configListeners) l(next);
      });
    }),
  );
  const keyFile = o.membershipKeyFile;
  return {
    describe: `cluster file ${o.cluster}, configuration ${o.config.join(', ')}`,
    cluster,
    config: () => config as LbConfig,
    onConfig: (l) => subscribe(configListeners, l),
    onRejected: (l) => subscribe(rejectedListeners, l),
    key,
    followKey(rotate) {
      if (keyFile === undefined) return () => undefined;
      return watchFile(keyFile, clock, 50, () => {
        readMembershipKey(keyFile).then(rotate, (err: Error) =>
          out.stderr(`lblab speaker: keeping the current membership key: ${err.message}`),
        );
      });
    },
    close() {
      for (const stop of stops) stop();
      cluster.close();
      return Promise.resolve();
    },
  };
}

export function subscribe<T>(set: Set<T>, listener: T): () => void {
  set.add(listener);
  return () => set.delete(listener);
}
