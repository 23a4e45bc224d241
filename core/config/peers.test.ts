// BGPPeer cases ported from MetalLB's internal/config/config_test.go (TestParse) and validation_test.go.
import { describe, expect, it } from 'vitest';
import { IpAddress } from '../net/index.ts';
import { bfdProfile, errors, load, peer, peerV1beta1, secret, valid, warnings } from './test-support.ts';

const basic = { myASN: 42, peerASN: 42, peerAddress: '1.2.3.4' };
const onePeer = (spec: Record<string, unknown>) => load([peer('peer1', { ...basic, ...spec })]);
const basicAuth = (data: Record<string, unknown>) => secret('bgpsecret', 'kubernetes.io/basic-auth', data);

describe('BGPPeer', () => {
  it('MetalLB TestParse: config using all features (peers)', () => {
    const config = valid(
      load([
        peer('peer1', {
          myASN: 42,
          peerASN: 142,
          peerAddress: '1.2.3.4',
          peerPort: 1179,
          holdTime: '180s',
          connectTime: '1s',
          routerID: '10.20.30.40',
          sourceAddress: '10.20.30.40',
          enableGracefulRestart: true,
          ebgpMultiHop: true,
          vrf: 'foo',
        }),
        peer('peer2', {
          myASN: 100,
          peerASN: 200,
          peerAddress: '2.3.4.5',
          connectTime: '1s',
          nodeSelectors: [
            {
              matchLabels: { foo: 'bar' },
              matchExpressions: [{ key: 'bar', operator: 'In', values: ['quux'] }],
            },
          ],
        }),
      ]),
    );
    expect(config.peers[0]).toMatchObject({
      myASN: 42,
      peerASN: 142,
      peerPort: 1179,
      holdTimeMs: 180_000,
      keepaliveTimeMs: 60_000,
      connectTimeMs: 1000,
      enableGracefulRestart: true,
      ebgpMultiHop: true,
      vrf: 'foo',
      nodeSelectors: [],
      disableMP: false,
      dualStackAddressFamily: false,
    });
    expect(config.peers[0]?.peerAddress.equals(IpAddress.parse('1.2.3.4'))).toBe(true);
    expect(String(config.peers[0]?.routerID)).toBe('10.20.30.40');
    expect(String(config.peers[0]?.sourceAddress)).toBe('10.20.30.40');
    expect(config.peers[1]).toMatchObject({
      peerPort: 179,
      enableGracefulRestart: false,
      ebgpMultiHop: false,
    });
    expect(config.peers[1]?.holdTimeMs).toBeUndefined();
    expect(config.peers[1]?.nodeSelectors).toEqual([
      { matchLabels: { foo: 'bar' }, matchExpressions: [{ key: 'bar', operator: 'In', values: ['quux'] }] },
    ]);
  });

  it('MetalLB TestParse: peer-only', () => {
    const p = valid(onePeer({})).peers[0];
    expect(p).toMatchObject({ myASN: 42, peerASN: 42, peerPort: 179, ebgpMultiHop: false });
    expect(p?.password).toBeUndefined();
    expect(p?.bfdProfile).toBeUndefined();
  });

  it.each([
    [
      'invalid peer-address',
      { peerAddress: '1.2.3.400' },
      'spec.peerAddress: "1.2.3.400" is not an IP address: part 4 (400) is above 255',
    ],
    ['invalid my-asn', { myASN: undefined }, 'spec.myASN: required field is missing'],
    [
      'invalid peer-asn',
      { peerASN: undefined },
      'spec.peerASN: set either peerASN or dynamicASN (internal or external)',
    ],
    [
      'invalid ebgp-multihop',
      { ebgpMultiHop: true },
      'spec.ebgpMultiHop: ebgpMultiHop is for eBGP peers, and this peer is iBGP (its AS is myASN)',
    ],
    [
      'invalid password with newline',
      { password: 'password\n' },
      'spec.password: must not contain line breaks',
    ],
    [
      'invalid password with carriage return',
      { password: 'password\r' },
      'spec.password: must not contain line breaks',
    ],
    ['invalid VRF name with newline', { vrf: 'vrf\n' }, 'spec.vrf: must not contain line breaks'],
    ['invalid VRF name with carriage return', { vrf: 'vrf\r' }, 'spec.vrf: must not contain line breaks'],
    [
      'invalid keepalivetime larger than holdtime',
      { holdTime: '30s', keepaliveTime: '90s' },
      'spec.keepaliveTime: keepaliveTime 90s is longer than the hold time 30s',
    ],
    [
      'invalid hold time (too short)',
      { holdTime: '1s' },
      'spec.holdTime: hold time 1s must be 0 or at least 3s (RFC 4271 §4.2)',
    ],
    [
      'invalid RouterID',
      { routerID: 'oh god how do I BGP' },
      'spec.routerID: "oh god how do I BGP" is not an IP address: an IPv4 address has 4 dotted parts, found 1',
    ],
    [
      'peer with both asn and dynamic asn',
      { dynamicASN: 'internal' },
      'spec.dynamicASN: peerASN and dynamicASN are mutually exclusive: set one of them',
    ],
    [
      'BGP Peer with both password and secret ref set',
      { password: 'nopass', passwordSecret: { name: 'nosecret', namespace: 'metallb-system' } },
      'spec.passwordSecret: password and passwordSecret are mutually exclusive: set one of them',
    ],
    [
      'BGP Peer with unavailable secret ref',
      { passwordSecret: { name: 'nosecret', namespace: 'metallb-system' } },
      'spec.passwordSecret.name: no Secret "nosecret" is defined in namespace "metallb-system"',
    ],
    [
      'Peer with non existing BFD Profile',
      { bfdProfile: 'default' },
      'spec.bfdProfile: no BFDProfile "default" is defined',
    ],
  ])('MetalLB TestParse: %s', (_desc, spec, message) => {
    expect(errors(onePeer(spec))).toEqual([`document 0: ${message}`]);
  });

  it('MetalLB TestParse: peer without asn or dynamic asn (no address either)', () => {
    expect(errors(load([peer('p', { myASN: 42 })]))).toEqual([
      'document 0: spec.peerAddress: required field is missing',
      'document 0: spec.peerASN: set either peerASN or dynamicASN (internal or external)',
    ]);
  });

  it('refuses an empty peerAddress instead of dropping the peer without a word', () => {
    expect(errors(onePeer({ peerAddress: '' }))).toEqual([
      'document 0: spec.peerAddress: is empty; it must be the IP address of the peer',
    ]);
  });

  it('MetalLB TestParse: invalid expression node selector (missing key / missing operator / invalid operator)', () => {
    const expr = (e: Record<string, unknown>) =>
      onePeer({ nodeSelectors: [{ matchLabels: { foo: 'bar' }, matchExpressions: [e] }] });
    const at = 'document 0: spec.nodeSelectors[0].matchExpressions[0]';
    expect(errors(expr({ operator: 'In', values: ['quux'] }))).toEqual([
      `${at}.key: required field is missing`,
    ]);
    expect(errors(expr({ key: 'bar', values: ['quux'] }))).toEqual([
      `${at}.operator: required field is missing`,
    ]);
    expect(errors(expr({ key: 'bar', operator: 'surrounds', values: ['quux'] }))).toEqual([
      `${at}.operator: operator "surrounds" is not one of In, NotIn, Exists, DoesNotExist`,
    ]);
  });

  it('MetalLB TestParse: duplicate values node selector match expression', () => {
    expect(
      errors(
        onePeer({
          nodeSelectors: [{ matchExpressions: [{ key: 'bar', operator: 'In', values: ['quux', 'quux'] }] }],
        }),
      ),
    ).toEqual(['document 0: spec.nodeSelectors[0].matchExpressions[0].values[1]: duplicate value "quux"']);
  });

  it('MetalLB TestParse: peer with holdtime only (keepalive is a third of it)', () => {
    expect(valid(onePeer({ holdTime: '180s' })).peers[0]).toMatchObject({
      holdTimeMs: 180_000,
      keepaliveTimeMs: 60_000,
    });
  });

  it('MetalLB TestParse: peer with keepalive only (hold time is three times it)', () => {
    expect(valid(onePeer({ keepaliveTime: '60s' })).peers[0]).toMatchObject({
      holdTimeMs: 180_000,
      keepaliveTimeMs: 60_000,
    });
  });

  it('MetalLB TestParse: peer with zero hold/keepalive timers', () => {
    expect(valid(onePeer({ holdTime: '0s', keepaliveTime: '0s' })).peers[0]).toMatchObject({
      holdTimeMs: 0,
      keepaliveTimeMs: 0,
    });
  });

  it('MetalLB TestParse: peer without hold/keepalive timers', () => {
    const p = valid(onePeer({})).peers[0];
    expect(p?.holdTimeMs).toBeUndefined();
    expect(p?.keepaliveTimeMs).toBeUndefined();
  });

  it('MetalLB parseTimers: a hold time under a second truncates to 0 and is accepted, with a warning', () => {
    const result = onePeer({ holdTime: '500ms', keepaliveTime: '100ms' });
    expect(valid(result).peers[0]).toMatchObject({ holdTimeMs: 500, keepaliveTimeMs: 100 });
    expect(warnings(result)).toEqual([
      'document 0: spec.holdTime: hold time 500ms truncates to 0s, which turns the hold timer and keepalives off',
    ]);
  });

  it('durations are Go durations: "1m30s" and "1.5m" are both 90 s', () => {
    expect(valid(onePeer({ holdTime: '1m30s' })).peers[0]?.holdTimeMs).toBe(90_000);
    expect(valid(onePeer({ holdTime: '1.5m' })).peers[0]?.holdTimeMs).toBe(90_000);
  });

  it('MetalLB TestParse: duplicate peers; TestValidateFRR: duplicate bgp address', () => {
    expect(errors(load([peer('a', basic), peer('b', basic)]))).toEqual([
      'document 1: spec.peerAddress: BGPPeer "a" in test.yaml document 0 already peers with 1.2.3.4 port 179 in the default VRF from the same nodes',
    ]);
  });

  it('peers to one address are not duplicates on another port, in another VRF, or from other nodes', () => {
    valid(
      load([peer('a', basic), peer('b', { ...basic, peerPort: 1179 }), peer('c', { ...basic, vrf: 'red' })]),
    );
    const on = (n: string) => [{ matchLabels: { 'kubernetes.io/hostname': n } }];
    valid(
      load([
        peer('a', { ...basic, nodeSelectors: on('n1') }),
        peer('b', { ...basic, nodeSelectors: on('n2') }),
      ]),
    );
    expect(errors(load([peer('a', { ...basic, nodeSelectors: on('n1') }), peer('b', basic)]))).toHaveLength(
      1,
    );
  });

  it('MetalLB TestParse: peer with dynamic asn', () => {
    const p = valid(load([peer('peer1', { myASN: 42, dynamicASN: 'internal', peerAddress: '1.2.3.4' })]))
      .peers[0];
    expect(p?.dynamicASN).toBe('internal');
    expect(p?.peerASN).toBeUndefined();
  });

  it('a dynamic internal peer is iBGP, so ebgpMultiHop is refused for it too', () => {
    expect(
      errors(
        load([peer('p', { myASN: 42, dynamicASN: 'internal', peerAddress: '1.2.3.4', ebgpMultiHop: true })]),
      ),
    ).toHaveLength(1);
    valid(
      load([peer('p', { myASN: 42, dynamicASN: 'external', peerAddress: '1.2.3.4', ebgpMultiHop: true })]),
    );
  });

  it('MetalLB TestParse: unnumbered peer with interface is a MetalLB feature lblab refuses, saying so', () => {
    expect(errors(load([peer('peer1', { myASN: 42, dynamicASN: 'internal', interface: 'net0' })]))).toEqual([
      'document 0: spec.interface: not supported by lblab: unnumbered BGP peering over an interface; set peerAddress instead',
    ]);
  });

  it('MetalLB TestParse: peer with DisableMP field', () => {
    expect(valid(onePeer({ disableMP: true, dualStackAddressFamily: true })).peers[0]).toMatchObject({
      disableMP: true,
      dualStackAddressFamily: true,
    });
  });

  it('MetalLB TestParse: Session with default BFD Profile', () => {
    const config = valid(load([peer('peer1', { ...basic, bfdProfile: 'default' }), bfdProfile('default')]));
    expect(config.peers[0]?.bfdProfile).toBe('default');
  });

  it('MetalLB TestParse: BGP Peer with a valid secret (data, base64)', () => {
    const result = load([
      basicAuth({ data: { password: btoa('nopass') } }),
      peer('peer1', { ...basic, passwordSecret: { name: 'bgpsecret', namespace: 'metallb-system' } }),
    ]);
    expect(valid(result).peers[0]).toMatchObject({
      password: 'nopass',
      passwordSecret: { name: 'bgpsecret', namespace: 'metallb-system' },
    });
  });

  it("a Secret password may come from stringData, which wins over data; the namespace defaults to the peer's", () => {
    const result = load([
      basicAuth({ data: { password: btoa('old') }, stringData: { password: 'new' } }),
      peer('peer1', { ...basic, passwordSecret: { name: 'bgpsecret' } }),
    ]);
    expect(valid(result).peers[0]?.password).toBe('new');
  });

  it.each([
    [
      'BGP Peer with invalid secret type',
      secret('bgpsecret', 'Opaque', { stringData: { password: 'x' } }),
      'Secret "bgpsecret" has type "Opaque"; it must be kubernetes.io/basic-auth',
    ],
    [
      'BGP Peer without password set in the secret',
      basicAuth({ stringData: { username: 'u' } }),
      'Secret "bgpsecret" has no "password" key',
    ],
    [
      'invalid password secret with newline',
      basicAuth({ data: { password: btoa('nopass\n') } }),
      'the password in Secret "bgpsecret" must not contain line breaks',
    ],
    [
      'invalid password secret with carriage return',
      basicAuth({ data: { password: btoa('nopass\r') } }),
      'the password in Secret "bgpsecret" must not contain line breaks',
    ],
  ])('MetalLB TestParse: %s', (_desc, s, message) => {
    const result = load([
      s,
      peer('peer1', { ...basic, passwordSecret: { name: 'bgpsecret', namespace: 'metallb-system' } }),
    ]);
    expect(errors(result)).toEqual([`document 1: spec.passwordSecret.name: ${message}`]);
  });

  it('v1beta1 BGPPeer still loads, with a deprecation warning, and without the v1beta2-only fields', () => {
    const result = load([
      peerV1beta1('old', { ...basic, holdTime: '90s', nodeSelectors: [{ matchLabels: { a: 'b' } }] }),
    ]);
    expect(valid(result).peers[0]).toMatchObject({ myASN: 42, holdTimeMs: 90_000 });
    expect(warnings(result)).toEqual([
      'document 0: apiVersion: metallb.io/v1beta1 BGPPeer is deprecated, please use metallb.io/v1beta2',
    ]);
    expect(errors(load([peerV1beta1('old', { ...basic, vrf: 'red' })]))).toEqual([
      'document 0: spec.vrf: unknown field "vrf"',
    ]);
  });
});
