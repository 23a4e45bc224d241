/** The membership key from Secret memberlist: waited for at start (bounded), followed afterwards. */
import type { V1Secret } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../runtime/virtual-clock.ts';
import {
  followMembershipKey,
  keyFromSecret,
  waitForMembershipKey,
  type SecretSource,
} from './membership-key.ts';

const ns = 'metallb-system';
const secret = (bytes: Buffer): V1Secret => ({
  metadata: { name: 'memberlist', namespace: ns },
  data: { secretkey: bytes.toString('base64') },
});
const keyA = Buffer.alloc(32, 1);
const keyB = Buffer.alloc(32, 2);

/** Secrets as the config source's informer cache holds them. */
class Secrets implements SecretSource {
  private readonly items = new Map<string, V1Secret>();
  private readonly listeners = new Map<string, Set<(s: V1Secret | undefined) => void>>();
  secret(name: string) {
    return this.items.get(name);
  }
  onSecret(name: string, l: (s: V1Secret | undefined) => void) {
    const set = this.listeners.get(name) ?? new Set();
    set.add(l);
    this.listeners.set(name, set);
    return () => set.delete(l);
  }
  put(s: V1Secret | undefined, name = 'memberlist') {
    if (s) this.items.set(name, s);
    else this.items.delete(name);
    for (const l of this.listeners.get(name) ?? []) l(s);
  }
  listening(name = 'memberlist') {
    return this.listeners.get(name)?.size ?? 0;
  }
}

describe('membership key from the cluster', () => {
  it('reads data.secretkey; names the Secret and the field when it is missing or too short', () => {
    expect(keyFromSecret(secret(keyA), ns)).toEqual({ key: new Uint8Array(keyA) });
    expect(keyFromSecret(undefined, ns)).toEqual({
      problem: 'Secret metallb-system/memberlist does not exist (the controller creates it)',
    });
    expect(keyFromSecret({ metadata: { name: 'memberlist' }, data: {} }, ns)).toEqual({
      problem: 'Secret metallb-system/memberlist has no data.secretkey',
    });
    expect(keyFromSecret(secret(Buffer.alloc(8)), ns)).toEqual({
      problem: 'Secret metallb-system/memberlist: data.secretkey is 8 bytes, at least 16 are needed',
    });
  });

  it('at start: the key at once when the Secret is there', async () => {
    const source = new Secrets();
    source.put(secret(keyA));
    const key = await waitForMembershipKey({
      source,
      namespace: ns,
      clock: new VirtualClock(),
      timeoutMs: 30_000,
      log: () => undefined,
    });
    expect(Buffer.from(key!)).toEqual(keyA);
  });

  it('at start: waits for the controller to create it, and gives up after the bound', async () => {
    const clock = new VirtualClock();
    const source = new Secrets();
    const logged: string[] = [];
    const o = { source, namespace: ns, clock, timeoutMs: 30_000, log: (l: string) => logged.push(l) };
    const arriving = waitForMembershipKey(o);
    clock.advance(10_000);
    source.put(secret(keyA));
    expect(Buffer.from((await arriving)!)).toEqual(keyA);
    expect(logged[0]).toMatch(/waiting up to 30000 ms for the membership key: .*the controller creates it/);
    expect(source.listening()).toBe(0);
    const never = waitForMembershipKey({ ...o, source: new Secrets() });
    clock.advance(30_000);
    expect(await never).toBeUndefined();
  });

  it('afterwards: a changed Secret rotates the key; the same or an unusable one does not', () => {
    const source = new Secrets();
    const rotated: Buffer[] = [];
    const logged: string[] = [];
    followMembershipKey({
      source,
      namespace: ns,
      current: new Uint8Array(keyA),
      rotate: (k) => rotated.push(Buffer.from(k)),
      log: (l) => logged.push(l),
    });
    source.put(secret(keyA));
    source.put(secret(keyB));
    source.put(secret(Buffer.alloc(4)));
    source.put(undefined);
    source.put(secret(keyB));
    expect(rotated).toEqual([keyB]);
    expect(logged.filter((l) => /keeping the current membership key/.test(l))).toHaveLength(2);
  });

  it('started without a key: a Secret that appears is not forced on membership (it cannot take one); it says to restart', () => {
    const source = new Secrets();
    const rotated: Uint8Array[] = [];
    const logged: string[] = [];
    followMembershipKey({
      source,
      namespace: ns,
      current: undefined,
      rotate: (k) => rotated.push(k),
      log: (l) => logged.push(l),
    });
    source.put(secret(keyA));
    expect(rotated).toEqual([]);
    expect(logged.join('\n')).toMatch(/warning: the membership key appeared .* restart the speakers/);
  });
});
