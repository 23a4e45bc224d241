// Timer changes on a live session (RFC 5880 §6.8.3) and the Poll Sequence that carries them (§6.5).
import { describe, expect, it } from 'vitest';
import { harness } from './harness.test-support.ts';

/** Up with a peer sending Up every 50 ms at 100 ms timers; it answers Polls only while `answer.polls`. */
function live(config: Parameters<typeof harness>[0] = {}) {
  const h = harness(config);
  const answer = { polls: true };
  h.session.start();
  h.bringUp();
  h.peerSends(50, () => ({ state: 'up', final: answer.polls && (h.sent.at(-1)?.packet.poll ?? false) }));
  h.clock.advance(1000);
  return { ...h, answer };
}

describe('slow start and Poll Sequences (RFC 5880 §6.8.3, §6.5)', () => {
  it('leaves slow start by a Poll carrying the configured interval, which a Final ends', () => {
    const h = harness();
    h.session.start();
    h.clock.advance(0);
    expect(h.sent[0]!.packet.desiredMinTxIntervalUs).toBe(1_000_000);
    const before = h.sent.length;
    h.bringUp();
    h.clock.advance(100);
    const polls = h.sent.slice(before);
    expect(polls.length).toBeGreaterThan(0);
    expect(polls.every((s) => s.packet.poll && s.packet.desiredMinTxIntervalUs === 100_000)).toBe(true);
    expect(h.session.snapshot().pollSequence).toBe(true);
    h.feed({ state: 'up', final: true });
    const finalAt = h.clock.now();
    h.peerSends(50, { state: 'up' });
    h.clock.advance(1000);
    expect(h.sent.filter((s) => s.atMs > finalAt).some((s) => s.packet.poll)).toBe(false);
    expect(Math.max(...h.gaps(finalAt))).toBeLessThan(100);
  });

  it('keeps sending at the old, faster rate after slowing down until the Final arrives', () => {
    const h = live();
    h.answer.polls = false;
    h.session.updateTimers({ transmitIntervalMs: 500, receiveIntervalMs: 100, detectMultiplier: 3 });
    const changedAt = h.clock.now();
    h.clock.advance(2000);
    const waiting = h.sent.filter((s) => s.atMs > changedAt);
    expect(waiting.every((s) => s.packet.poll && s.packet.desiredMinTxIntervalUs === 500_000)).toBe(true);
    expect(Math.max(...h.gaps(changedAt))).toBeLessThan(100);
    h.answer.polls = true;
    h.clock.advance(100);
    const finalAt = h.clock.now();
    h.clock.advance(5000);
    const gaps = h.gaps(finalAt).slice(1);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(0.75 * 500);
    expect(Math.max(...gaps)).toBeLessThan(500);
  });

  it('uses a higher Required Min RX for detection at once, and a lower one only after the Final', () => {
    const h = live();
    // The peer sends every 50 ms advertising 100 ms: the Detection Time is 3 × max(ours, 100 ms).
    expect(h.session.snapshot().detectionTimeMs).toBe(300);
    h.session.updateTimers({ transmitIntervalMs: 100, receiveIntervalMs: 400, detectMultiplier: 3 });
    expect(h.session.snapshot().detectionTimeMs).toBe(1200);
    h.clock.advance(500);
    h.answer.polls = false;
    h.session.updateTimers({ transmitIntervalMs: 100, receiveIntervalMs: 100, detectMultiplier: 3 });
    h.clock.advance(1000);
    expect(h.session.snapshot()).toMatchObject({ requiredMinRxMs: 100, detectionTimeMs: 1200 });
    h.answer.polls = true;
    h.clock.advance(200);
    expect(h.session.snapshot()).toMatchObject({ pollSequence: false, detectionTimeMs: 300 });
  });

  it('holds a second change until the first Poll is answered and a packet without Final follows', () => {
    const h = live();
    h.answer.polls = false;
    h.session.updateTimers({ transmitIntervalMs: 100, receiveIntervalMs: 200, detectMultiplier: 3 });
    h.clock.advance(300);
    h.session.updateTimers({ transmitIntervalMs: 100, receiveIntervalMs: 300, detectMultiplier: 3 });
    h.clock.advance(300);
    expect(h.sent.at(-1)!.packet).toMatchObject({ poll: true, requiredMinRxIntervalUs: 200_000 });
    // The Final of the first Poll, then the peer's next ordinary packet: only now may the second start.
    h.feed({ state: 'up', final: true });
    h.clock.advance(20);
    expect(h.session.snapshot()).toMatchObject({ requiredMinRxMs: 200, pollSequence: false });
    h.answer.polls = true;
    h.clock.advance(500);
    expect(h.session.snapshot()).toMatchObject({ requiredMinRxMs: 300, pollSequence: false });
    expect(h.sent.some((s) => s.packet.poll && s.packet.requiredMinRxIntervalUs === 300_000)).toBe(true);
  });

  it('goes back to the 1 s floor when it leaves Up, at once (§6.8.3 applies the hold only while Up)', () => {
    const h = live();
    h.session.adminDown();
    h.clock.advance(200);
    const down = h.sent.filter((s) => s.packet.state === 'admin-down');
    expect(down.length).toBeGreaterThan(0);
    expect(down.every((s) => s.packet.desiredMinTxIntervalUs === 1_000_000)).toBe(true);
  });
});
