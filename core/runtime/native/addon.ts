/**
 * Loading the native addons that `npm ci` builds into build/Release from this folder (binding.gyp), and
 * the one error a user sees when one is missing: not built yet on Linux, or not buildable elsewhere.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { LblabError } from '../../errors/lblab-error.ts';

export interface AddonInfo {
  /** The binding.gyp target, e.g. "af_packet". */
  target: string;
  /** What the addon is for, as a user reads it: "the AF_PACKET addon". */
  label: string;
  /** What cannot work without Linux: "raw Ethernet ports need Linux (AF_PACKET)". */
  needsLinux: string;
}

/** A native addon is not in build/Release: `npm ci` builds them, on Linux only. */
export class NativeAddonMissingError extends LblabError {
  readonly code = 'NATIVE_ADDON_MISSING';

  constructor(
    readonly path: string,
    info: AddonInfo,
    platform: string,
  ) {
    super(
      platform === 'linux'
        ? `${info.label} ${path} was not built: run npm ci (it builds the native addons)`
        : `${info.needsLinux}, not ${platform}: use the emulated backend`,
    );
  }
}

/** A loader of one addon: loads it on the first call (throwing NativeAddonMissingError), then reuses it. */
export function addonLoader<T>(info: AddonInfo): () => T {
  const path = fileURLToPath(new URL(`../../../build/Release/${info.target}.node`, import.meta.url));
  let addon: T | undefined;
  return () => {
    if (addon === undefined) {
      if (!existsSync(path)) throw new NativeAddonMissingError(path, info, process.platform);
      addon = createRequire(import.meta.url)(path) as T;
    }
    return addon;
  };
}
