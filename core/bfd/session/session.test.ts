// Session state as a client (BGP) sees it: the changes reported, their reasons, AdminDown both ways.
import { describe, expect, it } from 'vitest';
import { Diagnostic } from '../codec.ts';
import { harness } from './harness.test-support.ts';
import { isPathFailure } from './state-change.ts';

describe('BFD session state changes', () => {
  it('reports the handshake with the peer’s state, diagnostic and C bit', () => {
    const h = harness();
    h.session.start();
    h.feed({ state: 'down', yourDiscriminator: 0, controlPlaneIndependent: true });
    h.feed({ state: 'init', controlPlaneIndependent: true });
    expect(h.changes.map((c) => [c.previous, c.state, c.remoteState])).toEqual([
      ['down', 'init', 'down'],
      ['init', 'up', 'init'],
    ]);
    expect(h.changes.every((c) => c.remoteControlPlaneIndependent && c.diagnostic === Diagnostic.none)).toBe(
      true,
    );
  });

  it('goes Down with diagnostic 1 one Detection Time after the last packet, and says so', () => {
    const h = harness();
    h.session.start();
    h.bringUp();
    h.clock.advance(250);
    h.feed({ state: 'up' });
    const lastAt = h.clock.now();
    h.clock.advance(299);
    expect(h.session.sessionState).toBe('up');
    h.clock.advance(1);
    const down = h.changes.at(-1)!;
    expect(down).toMatchObject({ state: 'down', previous: 'up', diagnostic: 1, atMs: lastAt + 300 });
    expect(down.reason).toBe('no packet for 300 ms (3 × 100 ms)');
    expect(isPathFailure(down)).toBe(true);
    h.clock.advance(1000);
    expect(h.sent.at(-1)!.packet).toMatchObject({ state: 'down', diagnostic: 1, yourDiscriminator: 0 });
  });

  it('reports a peer that goes AdminDown as remote admin-down, which is no path failure', () => {
    const h = harness();
    h.session.start();
    h.bringUp();
    h.feed({ state: 'admin-down', diagnostic: Diagnostic.administrativelyDown });
    const down = h.changes.at(-1)!;
    expect(down).toMatchObject({ state: 'down', previous: 'up', remoteState: 'admin-down', diagnostic: 3 });
    expect(down.remoteDiagnostic).toBe(Diagnostic.administrativelyDown);
    expect(isPathFailure(down)).toBe(false);
  });

  it('reports a peer that says Down as a path failure with diagnostic 3', () => {
    const h = harness();
    h.session.start();
    h.bringUp();
    h.feed({ state: 'down', diagnostic: Diagnostic.controlDetectionTimeExpired });
    const down = h.changes.at(-1)!;
    expect(down).toMatchObject({ state: 'down', diagnostic: Diagnostic.neighborSignaledSessionDown });
    expect(isPathFailure(down)).toBe(true);
  });

  it('goes AdminDown with diagnostic 7, keeps sending it, ignores the peer, and comes back through Down', () => {
    const h = harness();
    h.session.start();
    h.bringUp();
    h.session.adminDown();
    expect(h.changes.at(-1)).toMatchObject({
      state: 'admin-down',
      diagnostic: Diagnostic.administrativelyDown,
    });
    expect(isPathFailure(h.changes.at(-1)!)).toBe(false);
    const from = h.sent.length;
    h.clock.advance(5000);
    const sent = h.sent.slice(from);
    expect(sent.length).toBeGreaterThan(1);
    expect(sent.every((s) => s.packet.state === 'admin-down' && s.packet.diagnostic === 7)).toBe(true);
    expect(h.feed({ state: 'init' })).toMatchObject({ accepted: false, authentication: false });
    expect(h.session.sessionState).toBe('admin-down');
    h.session.start();
    expect(h.changes.at(-1)).toMatchObject({ previous: 'admin-down', state: 'down' });
    h.bringUp();
    expect(h.session.sessionState).toBe('up');
  });

  it('sends nothing and changes nothing once stopped', () => {
    const h = harness();
    h.session.start();
    h.bringUp();
    h.session.stop();
    const sent = h.sent.length;
    const changes = h.changes.length;
    h.clock.advance(10_000);
    expect(h.feed({ state: 'down' }).accepted).toBe(false);
    expect([h.sent.length, h.changes.length]).toEqual([sent, changes]);
  });
});
