// RFC 5880 §6.8.7 and §6.8.3 as the peer sees them: when packets go out, how far apart, and when not.
import { describe, expect, it } from 'vitest';
import { harness, OUR_DISCRIMINATOR } from './harness.test-support.ts';

const SLOW_START_MS = 1000;

/**
 * A session Up at the fast rate, its slow-start Poll answered, with a peer that keeps sending Up every
 * 50 ms and answers our Polls until stop() is called.
 */
function upSession(config: Parameters<typeof harness>[0] = {}) {
  const h = harness(config);
  h.session.start();
  h.bringUp();
  const stop = h.peerSends(50, () => ({ state: 'up', final: h.sent.at(-1)?.packet.poll ?? false }));
  h.clock.advance(SLOW_START_MS);
  expect(h.session.snapshot()).toMatchObject({ state: 'up', pollSequence: false });
  return { ...h, stop };
}

describe('periodic transmission (RFC 5880 §6.8.7)', () => {
  it('sends at once when started, then every 0.75-1 s with Desired Min TX 1 s while not Up (§6.8.3)', () => {
    const h = harness();
    h.session.start();
    h.clock.advance(0);
    expect(h.sent).toHaveLength(1);
    h.clock.advance(20 * SLOW_START_MS);
    expect(h.sent.every((s) => s.packet.desiredMinTxIntervalUs === SLOW_START_MS * 1000)).toBe(true);
    expect(h.sent.every((s) => s.packet.state === 'down' && s.packet.yourDiscriminator === 0)).toBe(true);
    for (const gap of h.gaps()) {
      expect(gap).toBeGreaterThanOrEqual(0.75 * SLOW_START_MS);
      expect(gap).toBeLessThan(SLOW_START_MS);
    }
  });

  it('jitters each interval between 75 and 100 % of the negotiated one, spread across the band', () => {
    const h = upSession();
    const from = h.clock.now() + 1000;
    h.clock.advance(20_000);
    const gaps = h.gaps(from);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(75);
    expect(Math.max(...gaps)).toBeLessThan(100);
    // Jitter that does not vary would not stop sessions from synchronising: use most of the 25 ms band.
    expect(Math.max(...gaps) - Math.min(...gaps)).toBeGreaterThan(25 / 2);
  });

  it('keeps every interval between 75 and 90 % when Detect Mult is 1', () => {
    const h = upSession({ detectMultiplier: 1 });
    const from = h.clock.now() + 1000;
    h.clock.advance(20_000);
    const gaps = h.gaps(from);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(75);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(90);
  });

  it('sends no faster than the peer’s Required Min RX, and follows a lower one at once (§6.8.3)', () => {
    const h = upSession();
    h.stop();
    const slowMs = 2000;
    const stop = h.peerSends(50, { state: 'up', requiredMinRxIntervalUs: slowMs * 1000 });
    h.clock.advance(2 * slowMs);
    const slowFrom = h.clock.now();
    h.clock.advance(5 * slowMs);
    expect(Math.min(...h.gaps(slowFrom))).toBeGreaterThanOrEqual(0.75 * slowMs);
    stop();
    h.peerSends(50, { state: 'up' });
    const now = h.clock.now();
    const last = h.sent.at(-1)!.atMs;
    const count = h.sent.length;
    h.clock.advance(100);
    // Due 75-100 ms after the last packet, or at once if that moment has passed: not up to 2 s later.
    expect(h.sent[count]!.atMs).toBeLessThanOrEqual(Math.max(now + 50, last + 100));
  });

  it('stops periodic packets while the peer’s Required Min RX is 0, yet answers its Poll with a Final', () => {
    const h = upSession();
    h.stop();
    h.feed({ state: 'up', requiredMinRxIntervalUs: 0 });
    const before = h.sent.length;
    h.clock.advance(250);
    expect(h.sent.length).toBe(before);
    h.feed({ state: 'up', requiredMinRxIntervalUs: 0, poll: true });
    expect(h.sent.slice(before).map((s) => [s.packet.final, s.packet.poll])).toEqual([[true, false]]);
  });

  it('honours a peer in Demand mode: silent while both are Up, a Final for its Poll, periodic again after', () => {
    const h = upSession();
    h.stop();
    let stop = h.peerSends(50, { state: 'up', demand: true });
    h.clock.advance(200);
    const quietFrom = h.sent.length;
    h.clock.advance(1000);
    expect(h.sent.length).toBe(quietFrom);
    expect(h.session.sessionState).toBe('up');
    h.feed({ state: 'up', demand: true, poll: true });
    expect(h.sent.slice(quietFrom).map((s) => s.packet.final)).toEqual([true]);
    stop();
    stop = h.peerSends(50, { state: 'up', demand: false });
    h.clock.advance(200);
    expect(h.sent.length).toBeGreaterThan(quietFrom + 1);
    stop();
  });

  it('in Demand mode of the peer, sends a timer change as periodic Polls until the Final, then falls silent', () => {
    const h = upSession();
    h.stop();
    h.peerSends(50, { state: 'up', demand: true });
    h.clock.advance(200);
    h.session.updateTimers({ transmitIntervalMs: 200, receiveIntervalMs: 200, detectMultiplier: 3 });
    const from = h.sent.length;
    h.clock.advance(500);
    const polls = h.sent.slice(from);
    expect(polls.length).toBeGreaterThan(1);
    expect(polls.every((s) => s.packet.poll && s.packet.requiredMinRxIntervalUs === 200_000)).toBe(true);
    h.feed({ state: 'up', demand: true, final: true });
    const after = h.sent.length;
    h.clock.advance(1000);
    expect(h.sent.length).toBe(after);
  });

  it('never sets Demand, Multipoint or both Poll and Final, and sends the configured C bit', () => {
    const h = upSession({ controlPlaneIndependent: true });
    h.feed({ state: 'up', poll: true });
    h.clock.advance(2000);
    for (const { packet } of h.sent) {
      expect(packet.demand || packet.multipoint || (packet.poll && packet.final)).toBe(false);
      expect(packet.controlPlaneIndependent).toBe(true);
      expect(packet.myDiscriminator).toBe(OUR_DISCRIMINATOR);
    }
  });
});

describe('the passive role (RFC 5880 §6.1, §6.8.7)', () => {
  it('sends nothing until the peer’s first packet, then answers and takes part in the handshake', () => {
    const h = harness({ passive: true });
    h.session.start();
    h.clock.advance(10_000);
    expect(h.sent).toHaveLength(0);
    h.feed({ state: 'down', yourDiscriminator: 0 });
    h.clock.advance(10);
    expect(h.sent.map((s) => s.packet.state)).toEqual(['init']);
    expect(h.sent[0]!.packet.yourDiscriminator).not.toBe(0);
  });

  it('falls silent again once the peer has been quiet for a Detection Time (bfd.RemoteDiscr back to 0)', () => {
    const h = harness({ passive: true });
    h.session.start();
    h.feed({ state: 'down', yourDiscriminator: 0, desiredMinTxIntervalUs: 1_000_000 });
    const detectionMs = 3 * SLOW_START_MS;
    h.clock.advance(detectionMs + 1);
    const count = h.sent.length;
    expect(h.session.remoteDiscriminator).toBe(0);
    h.clock.advance(10_000);
    expect(h.sent.length).toBe(count);
  });
});
