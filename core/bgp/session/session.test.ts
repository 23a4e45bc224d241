import { describe, expect, it } from 'vitest';
import { IpAddress, Prefix } from '../../net/index.ts';
import { Random } from '../../runtime/random.ts';
import { VirtualClock } from '../../runtime/virtual-clock.ts';
import type { SessionConfig } from '../fsm/types.ts';
import type { Route } from '../rib/route.ts';
import { MemoryTransport, advanceWithPromises } from './memory-transport.test-support.ts';
import { BgpSession, SETUP_RACE_MS, type SessionEvent } from './session.ts';

const A = '198.18.0.11';
const B = '198.18.0.1';
const families = [
  { afi: 1, safi: 1 },
  { afi: 2, safi: 1 },
];

function config(
  localAs: number,
  peerAs: number,
  id: string,
  over: Partial<SessionConfig> = {},
): SessionConfig {
  return {
    localAs,
    peerAs,
    routerId: IpAddress.parse(id),
    holdTimeSec: 3,
    keepaliveSec: 1,
    connectRetrySec: 2,
    passive: false,
    families,
    ...over,
  };
}

const route = (p: string, communities: number[] = []): Route => ({
  prefix: Prefix.parse(p),
  attributes: { communities, largeCommunities: [] },
});

function lab() {
  const clock = new VirtualClock();
  const net = new MemoryTransport(clock);
  const events = { a: [] as SessionEvent[], b: [] as SessionEvent[] };
  const session = (
    who: 'a' | 'b',
    local: string,
    peer: string,
    cfg: SessionConfig,
    extra: { maxPrefixes?: number } = {},
  ) => {
    const s = new BgpSession({
      name: who,
      config: cfg,
      peer: IpAddress.parse(peer),
      port: 179,
      ttl: 1,
      connectTimeoutMs: 1000,
      nextHops: {
        v4: IpAddress.parse(local),
        v6: IpAddress.parse(local === A ? '2001:db8::11' : '2001:db8::1'),
      },
      clock,
      random: new Random(who === 'a' ? 1 : 2),
      connector: net.connectorFor(local),
      log: (e) => events[who].push(e),
      ...extra,
    });
    net.listen(local, (conn) => s.accept(conn));
    return s;
  };
  const advance = (ms: number) => advanceWithPromises(clock, ms);
  return { clock, net, events, session, advance };
}

const held = (s: BgpSession) =>
  s.received
    .list()
    .map((r) => `${r.prefix.toString()}${r.stale ? ' stale' : ''}`)
    .sort();

describe('BGP session over a transport (virtual time)', () => {
  it('establishes, advertises IPv4 and IPv6 with our next hop, AS path and communities, then End-of-RIB', async () => {
    const t = lab();
    const a = t.session('a', A, B, config(64513, 64512, A));
    const b = t.session('b', B, A, config(64512, 64513, B, { passive: true }));
    a.setRoutes([route('198.18.100.1/32', [64512 * 65536 + 100]), route('2001:db8:100::1/128')]);
    b.start();
    a.start();
    await t.advance(50);
    expect(a.state).toBe('established');
    expect(b.state).toBe('established');
    expect(held(b)).toEqual(['198.18.100.1/32', '2001:db8:100::1/128']);
    const v4 = b.received.list().find((r) => r.prefix.family === 4)!;
    expect(v4.attributes.nextHop?.toString()).toBe(A);
    expect(v4.attributes.asPath).toEqual([{ type: 'sequence', asns: [64513] }]);
    expect(v4.attributes.communities).toEqual([64512 * 65536 + 100]);
    const v6 = b.received.list().find((r) => r.prefix.family === 6)!;
    expect(v6.attributes.mpReach?.nextHops.map(String)).toEqual(['2001:db8::11']);
  });

  it('sends only changes: a withdrawn service disappears at the peer, an unchanged one is not resent', async () => {
    const t = lab();
    const a = t.session('a', A, B, config(64513, 64512, A));
    const b = t.session('b', B, A, config(64512, 64513, B, { passive: true }));
    a.setRoutes([route('198.18.100.1/32'), route('198.18.100.2/32')]);
    b.start();
    a.start();
    await t.advance(50);
    const before = t.events.a.filter((e) => e.kind === 'routes').length;
    a.setRoutes([route('198.18.100.1/32')]);
    await t.advance(10);
    expect(held(b)).toEqual(['198.18.100.1/32']);
    expect(t.events.a.filter((e) => e.kind === 'routes').slice(before)).toEqual([
      { kind: 'routes', sent: 0, withdrawn: 1 },
    ]);
  });

  it('both sides dial at once: one connection survives the collision (RFC 4271 §6.8) and the session comes up', async () => {
    const t = lab();
    const a = t.session('a', A, B, config(64513, 64512, A));
    const b = t.session('b', B, A, config(64512, 64513, B));
    a.start();
    b.start();
    await t.advance(100);
    expect([a.state, b.state]).toEqual(['established', 'established']);
    const notes = [...t.events.a, ...t.events.b]
      .filter((e) => e.kind === 'note')
      .map((e) => (e.kind === 'note' ? e.message : ''));
    expect(notes.some((m) => m.includes('collision'))).toBe(true);
  });

  it('a connection the peer opens while the session is up is a collision, not a restart: the session stays', async () => {
    const t = lab();
    const gr = { gracefulRestart: { restartTimeSec: 120, restarting: false } };
    const a = t.session('a', A, B, config(64513, 64512, A, gr));
    const b = t.session('b', B, A, config(64512, 64513, B, { ...gr, passive: true }));
    a.setRoutes([route('198.18.100.1/32')]);
    b.start();
    a.start();
    await t.advance(50);
    // The peer dials again (as FRR does when both sides start at once) with a plain OPEN.
    const late = t.session('b', B, A, config(64512, 64513, B, gr));
    late.start();
    await t.advance(100);
    expect([a.state, b.state]).toEqual(['established', 'established']);
    expect(held(b)).toEqual(['198.18.100.1/32']);
    expect(t.events.a).toContainEqual({ kind: 'note', message: 'collision with the established session' });
    expect(t.events.a.some((e) => e.kind === 'down')).toBe(false);
  });

  it("a freshly started peer's crossing dial with the R bit (as FRR sends) is a collision: the young session stays", async () => {
    const t = lab();
    const gr = (restarting: boolean) => ({ gracefulRestart: { restartTimeSec: 120, restarting } });
    const a = t.session('a', A, B, config(64513, 64512, A, gr(false)));
    const b = t.session('b', B, A, config(64512, 64513, B, { ...gr(true), passive: true }));
    b.setRoutes([route('198.18.200.1/32')]);
    b.start();
    a.start();
    await t.advance(50);
    expect(a.state).toBe('established');
    // The peer's own dial, started before its side of the session came up, arrives just after ours did.
    const crossing = t.session('b', B, A, config(64512, 64513, B, gr(true)));
    crossing.start();
    await t.advance(SETUP_RACE_MS / 2);
    expect([a.state, b.state]).toEqual(['established', 'established']);
    expect(held(a)).toEqual(['198.18.200.1/32']);
    expect(t.events.a).toContainEqual({ kind: 'note', message: 'collision with the established session' });
    expect(t.events.a.some((e) => e.kind === 'down')).toBe(false);
  });

  it('a peer that restarted (new OPEN with the R bit) replaces its old session, which keeps its routes stale', async () => {
    const t = lab();
    const gr = (restarting: boolean) => ({ gracefulRestart: { restartTimeSec: 120, restarting } });
    const a = t.session('a', A, B, config(64513, 64512, A, { ...gr(false), passive: true }));
    const b = t.session('b', B, A, config(64512, 64513, B, gr(false)));
    b.setRoutes([route('198.18.200.1/32')]);
    a.start();
    b.start();
    // No peer restarts within SETUP_RACE_MS of its session coming up (a new OPEN then is a collision).
    await t.advance(SETUP_RACE_MS);
    // b's process dies without a FIN reaching a; the new one connects with the R bit.
    t.net.silenced.add(`${B}>${A}`);
    b.stop('restart', 'crash');
    t.net.silenced.delete(`${B}>${A}`);
    const b2 = t.session('b', B, A, config(64512, 64513, B, gr(true)));
    b2.setRoutes([route('198.18.200.1/32')]);
    b2.start();
    await t.advance(20);
    expect(t.events.a).toContainEqual(
      expect.objectContaining({ kind: 'down', reason: expect.stringContaining('the peer restarted') }),
    );
    await t.advance(3000);
    expect(a.state).toBe('established');
    expect(held(a)).toEqual(['198.18.200.1/32']);
  });

  it('the hold timer ends a session whose peer went silent, within the hold time', async () => {
    const t = lab();
    const a = t.session('a', A, B, config(64513, 64512, A));
    const b = t.session('b', B, A, config(64512, 64513, B, { passive: true }));
    b.start();
    a.start();
    await t.advance(50);
    t.net.silenced.add(`${A}>${B}`);
    const silentAt = t.clock.now();
    await t.advance(3200);
    const down = t.events.b.find((e) => e.kind === 'down');
    expect(down).toMatchObject({ kind: 'down', reason: 'hold timer expired' });
    expect(b.state).not.toBe('established');
    expect(t.clock.now() - silentAt).toBeLessThanOrEqual(3200);
  });

  it('graceful restart: the helper keeps our routes stale while we restart, and the End-of-RIB refreshes them', async () => {
    const t = lab();
    const gr = { gracefulRestart: { restartTimeSec: 120, restarting: false } };
    const a = t.session('a', A, B, config(64513, 64512, A, gr));
    const b = t.session('b', B, A, config(64512, 64513, B, { ...gr, passive: true }));
    a.setRoutes([route('198.18.100.1/32'), route('198.18.100.2/32')]);
    b.start();
    a.start();
    await t.advance(50);
    a.stop('restart', 'upgrade');
    await t.advance(10);
    expect(held(b)).toEqual(['198.18.100.1/32 stale', '198.18.100.2/32 stale']);
    // The new speaker no longer serves .2: after its End-of-RIB that stale route is gone.
    const a2 = t.session(
      'a',
      A,
      B,
      config(64513, 64512, A, { gracefulRestart: { restartTimeSec: 120, restarting: true } }),
    );
    a2.setRoutes([route('198.18.100.1/32')]);
    a2.start();
    await t.advance(3000);
    expect(a2.state).toBe('established');
    expect(held(b)).toEqual(['198.18.100.1/32']);
  });

  it('a plain shutdown withdraws everything at once', async () => {
    const t = lab();
    const gr = { gracefulRestart: { restartTimeSec: 120, restarting: false } };
    const a = t.session('a', A, B, config(64513, 64512, A, gr));
    const b = t.session('b', B, A, config(64512, 64513, B, { ...gr, passive: true }));
    a.setRoutes([route('198.18.100.1/32')]);
    b.start();
    a.start();
    await t.advance(50);
    a.stop('shutdown', 'decommission');
    await t.advance(10);
    expect(held(b)).toEqual([]);
  });

  it('maximum-prefix: more routes than allowed close the session with Cease 1', async () => {
    const t = lab();
    const a = t.session('a', A, B, config(64513, 64512, A));
    const b = t.session('b', B, A, config(64512, 64513, B, { passive: true }), { maxPrefixes: 1 });
    a.setRoutes([route('198.18.100.1/32'), route('198.18.100.2/32')]);
    b.start();
    a.start();
    await t.advance(50);
    expect(t.events.b).toContainEqual(
      expect.objectContaining({ kind: 'down', reason: 'the peer sent more than 1 prefixes' }),
    );
    expect(t.events.a).toContainEqual(
      expect.objectContaining({ kind: 'down', reason: expect.stringContaining('NOTIFICATION 6/1') }),
    );
  });

  it('route refresh: the peer asks and gets everything again', async () => {
    const t = lab();
    const a = t.session('a', A, B, config(64513, 64512, A));
    const b = t.session('b', B, A, config(64512, 64513, B, { passive: true }));
    a.setRoutes([route('198.18.100.1/32')]);
    b.start();
    a.start();
    await t.advance(50);
    const before = t.events.a.filter((e) => e.kind === 'routes').length;
    b.requestRefresh({ afi: 1, safi: 1 });
    await t.advance(10);
    expect(t.events.a.filter((e) => e.kind === 'routes').slice(before)).toEqual([
      { kind: 'routes', sent: 1, withdrawn: 0 },
    ]);
  });
});
