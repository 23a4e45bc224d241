import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SutOutputError } from './errors.ts';
import { parseFrrBfdPeers, parseFrrNeighbors, parseFrrRoutes } from './frr-json.ts';

// Captured from FRR 8.4.4 peering with BIRD (AS 64513), GoBGP (64514) and an iBGP BIRD (64512).
const data = (f: string) => readFileSync(new URL(`./testdata/${f}`, import.meta.url), 'utf8');

describe('FRR JSON', () => {
  it('reads every path of `show bgp ipv4 unicast json detail`, best or not, received or originated', () => {
    const routes = parseFrrRoutes(data('frr-routes4.json'));
    expect(routes.map((r) => [r.prefix, r.from ?? 'local', r.best])).toEqual([
      ['198.18.100.1/32', '198.18.0.3', false],
      ['198.18.100.1/32', 'local', true],
      ['198.18.200.1/32', '198.18.0.2', true],
      ['198.18.210.1/32', '198.18.0.2', true],
      ['198.18.210.1/32', '198.18.0.3', false],
      ['198.18.220.1/32', '198.18.0.4', true],
    ]);
    expect(routes[1]).toEqual({
      prefix: '198.18.100.1/32',
      nextHops: [],
      asPath: [],
      origin: 'igp',
      communities: ['64512:1'],
      largeCommunities: [],
      med: 0,
      stale: false,
      best: true,
    });
    // FRR names well-known communities ("noExport"); the view uses their numbers.
    expect(routes[3]).toMatchObject({
      nextHops: ['198.18.0.2'],
      asPath: [64513],
      communities: ['64513:100', '65535:65281'],
      largeCommunities: ['64513:1:2'],
    });
    expect(routes[4]).toMatchObject({ origin: 'incomplete', asPath: [64514], communities: ['64514:100'] });
    expect(routes[5]).toMatchObject({ localPref: 100, asPath: [], communities: ['64512:220'] });
  });

  it('keeps the global IPv6 next hop and leaves the link-local one out', () => {
    expect(parseFrrRoutes(data('frr-routes6.json'))).toEqual([
      {
        prefix: '2001:db8:200::1/128',
        nextHops: ['2001:db8::2'],
        asPath: [64513],
        origin: 'igp',
        communities: ['64513:101'],
        largeCommunities: [],
        stale: false,
        best: true,
        from: '2001:db8::2',
      },
    ]);
  });

  it('marks the paths a restarting peer left behind as stale', () => {
    expect(parseFrrRoutes(data('frr-routes4-stale.json'))).toEqual([
      expect.objectContaining({ prefix: '198.18.200.1/32', stale: true, best: true, from: '198.18.0.2' }),
    ]);
  });

  it('reads neighbor states and accepted prefix counts', () => {
    expect(parseFrrNeighbors(data('frr-neighbors.json'))).toEqual([
      { address: '198.18.0.2', state: 'established', receivedPrefixes: 2 },
      { address: '198.18.0.3', state: 'established', receivedPrefixes: 2 },
      { address: '198.18.0.4', state: 'established', receivedPrefixes: 1 },
      { address: '198.18.0.9', state: 'connect', receivedPrefixes: 0 },
      { address: '2001:db8::2', state: 'established', receivedPrefixes: 1 },
    ]);
    expect(parseFrrNeighbors(data('frr-neighbors-down.json')).map((n) => n.state)).toEqual([
      'idle',
      'established',
      'established',
      'connect',
      'idle',
    ]);
  });

  it('computes the negotiated BFD interval and detection time', () => {
    expect(parseFrrBfdPeers(data('frr-bfd.json'))).toEqual([
      {
        peer: '198.18.0.2',
        state: 'up',
        transmitMs: 300,
        detectMs: 900,
        multihop: false,
        diagnostic: 'none',
        remoteDiagnostic: 'none',
        passive: false,
      },
    ]);
    const slowPeer = JSON.stringify([
      {
        peer: '198.18.0.7',
        status: 'up',
        'receive-interval': 300,
        'transmit-interval': 300,
        'remote-receive-interval': 500,
        'remote-transmit-interval': 1000,
        'remote-detect-multiplier': 5,
      },
    ]);
    expect(parseFrrBfdPeers(slowPeer)).toEqual([
      { peer: '198.18.0.7', state: 'up', transmitMs: 500, detectMs: 5000 },
    ]);
  });

  // Captured from FRR 8.4.4 r1 1.5 s after its single-hop peer (echo mode on) fell silent, beside a
  // multihop session in passive mode with minimum TTL 250; then `show bfd peers counters json`.
  it('reads why a session went down, echo, multihop and passive settings, and the transition counters', () => {
    const [single, multi] = parseFrrBfdPeers(data('frr-bfd-peers-down.json'), data('frr-bfd-counters.json'));
    expect(single).toEqual({
      peer: '198.18.0.11',
      state: 'down',
      transmitMs: 100,
      detectMs: 300,
      multihop: false,
      diagnostic: 'control-detection-time-expired',
      remoteDiagnostic: 'none',
      passive: false,
      echoTransmitMs: 100,
      upTransitions: 1,
      downTransitions: 1,
    });
    expect(multi).toEqual({
      peer: '198.18.0.12',
      state: 'up',
      transmitMs: 200,
      detectMs: 800,
      multihop: true,
      diagnostic: 'none',
      remoteDiagnostic: 'none',
      passive: true,
      minimumTtl: 250,
      upTransitions: 1,
      downTransitions: 0,
    });
    // Without the counters the view has no transition counts rather than zeros.
    expect(parseFrrBfdPeers(data('frr-bfd-peers-down.json'))[0]).not.toHaveProperty('downTransitions');
  });

  it('keeps counters with their own session when peer and local address repeat across single and multihop', () => {
    const session = (multihop: boolean) => ({
      multihop,
      peer: '198.18.0.9',
      local: '198.18.0.1',
      status: 'up',
    });
    const peers = JSON.stringify([session(false), session(true)]);
    const counters = JSON.stringify([
      { ...session(true), 'session-up': 1, 'session-down': 0 },
      { ...session(false), 'session-up': 4, 'session-down': 3 },
    ]);
    expect(parseFrrBfdPeers(peers, counters).map((p) => [p.multihop, p.downTransitions])).toEqual([
      [false, 3],
      [true, 0],
    ]);
  });

  it('leaves out a reserved diagnostic code FRR prints as "unknown", and refuses words it does not know', () => {
    const peer = (diagnostic: string) =>
      JSON.stringify([{ peer: '198.18.0.9', status: 'down', diagnostic, 'remote-diagnostic': 'path down' }]);
    expect(parseFrrBfdPeers(peer('unknown'))[0]).toEqual({
      peer: '198.18.0.9',
      state: 'down',
      remoteDiagnostic: 'path-down',
    });
    expect(() => parseFrrBfdPeers(peer('sunspots'))).toThrow(/unknown diagnostic "sunspots"/);
  });

  it('refuses output that is not what it asked for', () => {
    expect(() => parseFrrRoutes('% Unknown command: show bgp foo')).toThrow(SutOutputError);
    expect(() => parseFrrRoutes('{"vrfId": 0}')).toThrow(/no "routes" object/);
    expect(() => parseFrrBfdPeers('{}')).toThrow(SutOutputError);
    expect(() => parseFrrBfdPeers('[]', '% Unknown command')).toThrow(/FRR BFD counters: not JSON/);
  });
});
