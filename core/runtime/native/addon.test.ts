import { describe, expect, it } from 'vitest';
import { NativeAddonMissingError, addonLoader } from './addon.ts';

const info = { target: 'not_built', label: 'the test addon', needsLinux: 'tests need Linux' };

describe('addonLoader', () => {
  it('says how to build a missing addon on Linux, and that it needs Linux elsewhere', () => {
    const load = addonLoader(info);
    expect(load).toThrow(NativeAddonMissingError);
    expect(load).toThrow(/the test addon .*not_built\.node was not built: run npm ci/);
    expect(new NativeAddonMissingError('/x', info, 'darwin').message).toBe(
      'tests need Linux, not darwin: use the emulated backend',
    );
  });

  it('loads a built addon once and hands out the same object', () => {
    const load = addonLoader({ ...info, target: 'af_packet' });
    expect(load()).toBe(load());
  });
});
