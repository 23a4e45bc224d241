import { describe, expect, it } from 'vitest';
import { BfdOptionError } from './errors.ts';
import { checkMinimumTtl, checkOpenSpec } from './open-spec.ts';

describe('checkOpenSpec', () => {
  it.each([
    ['198.18.0.1', '198.18.0.2'],
    ['2001:db8::1', '2001:db8::2'],
  ])('takes %s to %s and keeps the addresses', (localAddress, peerAddress) => {
    const plan = checkOpenSpec({ localAddress, peerAddress, multihop: false });
    expect(plan.local.toString()).toBe(localAddress);
    expect(plan.peer.toString()).toBe(peerAddress);
    expect(plan.minimumTtl).toBeUndefined();
  });

  it('takes a per-session minimumTtl on multihop sessions', () => {
    const plan = checkOpenSpec({
      localAddress: '198.18.0.1',
      peerAddress: '198.18.5.2',
      multihop: true,
      minimumTtl: 250,
    });
    expect(plan.minimumTtl).toBe(250);
  });

  it.each([
    [
      { localAddress: '198.18.0.300', peerAddress: '198.18.0.2' },
      'localAddress',
      'part 4 (300) is above 255',
    ],
    [{ localAddress: '198.18.0.1', peerAddress: 'router' }, 'peerAddress', 'invalid address "router"'],
    [{ localAddress: '198.18.0.1', peerAddress: '2001:db8::2' }, 'peerAddress', 'is IPv6 but localAddress'],
    [{ localAddress: '0.0.0.0', peerAddress: '198.18.0.2' }, 'localAddress', 'unspecified address'],
    [{ localAddress: '::', peerAddress: '2001:db8::2' }, 'localAddress', 'unspecified address'],
    [{ localAddress: 'fe80::1', peerAddress: 'fe80::2' }, 'localAddress', 'is link-local'],
    [{ localAddress: '2001:db8::1', peerAddress: 'febf::2' }, 'peerAddress', 'is link-local'],
  ])('refuses %j, naming %s', (addresses, field, reason) => {
    const check = () => checkOpenSpec({ ...addresses, multihop: false });
    expect(check).toThrowError(BfdOptionError);
    expect(check).toThrowError(`BFD option ${field}: `);
    expect(check).toThrowError(reason);
  });

  it('refuses a minimumTtl on a single-hop session: RFC 5881 §5 fixes it at 255', () => {
    const check = () =>
      checkOpenSpec({
        localAddress: '198.18.0.1',
        peerAddress: '198.18.0.2',
        multihop: false,
        minimumTtl: 254,
      });
    expect(check).toThrowError(BfdOptionError);
    expect(check).toThrowError('single-hop sessions accept only TTL 255');
  });
});

describe('checkMinimumTtl', () => {
  it.each([1, 254, 255])('takes %d', (ttl) => expect(checkMinimumTtl('minimumTtl', ttl)).toBe(ttl));

  it.each([0, 256, 254.5, Number.NaN])('refuses %d', (ttl) => {
    expect(() => checkMinimumTtl('minimumTtl', ttl)).toThrowError(BfdOptionError);
    expect(() => checkMinimumTtl('minimumTtl', ttl)).toThrowError('is not a TTL (an integer from 1 to 255)');
  });
});
