import { describe, expect, it } from 'vitest';
import type { TimelineEvent } from '../../reports/result.ts';
import { CheckFailedError, NotApplicableError } from './checks.ts';
import { FakeLab } from './fake-lab.test-support.ts';
import { ScenarioLab } from './scenario-lab.ts';

function setup() {
  const fake = new FakeLab();
  const timeline: (Omit<TimelineEvent, 'atMs'> & { atMs?: number })[] = [];
  return {
    fake,
    timeline,
    lab: new ScenarioLab(fake, (e) => timeline.push({ atMs: e.atMs ?? fake.now(), ...e })),
  };
}

describe('scenario DSL', () => {
  it('eventually returns how long the check took, in lab time, polling at the given interval', async () => {
    const { lab, fake } = setup();
    let calls = 0;
    const took = await lab.eventually('third time lucky', () => ++calls >= 3, {
      withinMs: 1000,
      everyMs: 100,
    });
    expect(took).toBe(200);
    expect(calls).toBe(3);
    expect(fake.now()).toBe(200);
  });

  it('eventually fails with what it waited for, once the bound has passed', async () => {
    const { lab } = setup();
    await expect(lab.eventually('never', () => false, { withinMs: 300, everyMs: 100 })).rejects.toThrowError(
      new CheckFailedError('never: not within 300 ms'),
    );
  });

  it('consistently fails the moment the check stops holding', async () => {
    const { lab, fake } = setup();
    await expect(
      lab.consistently('stays up', () => fake.now() < 250, { forMs: 1000, everyMs: 50 }),
    ).rejects.toThrowError('stays up: stopped holding after 250 ms');
    await lab.consistently('always', () => true, { forMs: 200, everyMs: 50 });
  });

  it('records steps with their outcome and lab duration; a failing step rethrows', async () => {
    const { lab } = setup();
    await lab.step('wait', () => lab.sleep(150));
    await expect(
      lab.step('check', () => lab.eventually('x', () => false, { withinMs: 100 })),
    ).rejects.toThrowError(CheckFailedError);
    await expect(lab.step('crash', () => Promise.reject(new Error('boom')))).rejects.toThrowError('boom');
    expect(lab.steps).toEqual([
      { name: 'wait', status: 'pass', durationMs: 150 },
      { name: 'check', status: 'fail', durationMs: 100, message: 'x: not within 100 ms' },
      { name: 'crash', status: 'error', durationMs: 0, message: 'boom' },
    ]);
  });

  it('gates read measurements; a missing one fails', () => {
    const { lab } = setup();
    lab.measure('outageMs', 300);
    lab.gate('outageMs', { below: 1000 });
    lab.gate('outageMs', { atMost: 299 });
    lab.gate('lostProbes', { equals: 0 });
    expect(lab.gates).toEqual([
      { name: 'outageMs', threshold: '< 1000', value: 300, pass: true },
      { name: 'outageMs', threshold: '<= 299', value: 300, pass: false },
      { name: 'lostProbes', threshold: '= 0', value: null, pass: false },
    ]);
  });

  it('puts faults and probe outages on the timeline where they happened', async () => {
    const { lab, fake, timeline } = setup();
    fake.nextProbe = {
      sent: 4000,
      received: 3700,
      lost: 300,
      outageMs: 301,
      gaps: [
        {
          gapMs: 301,
          lastSeqBefore: 1000,
          firstSeqAfter: 1300,
          sentApartMs: 300,
          serverBefore: 'n1',
          serverAfter: 'n2',
        },
      ],
      servers: [],
      runs: [],
    };
    const probe = lab.client('c1').probe('198.18.0.192', { ratePps: 1000, seconds: 4 });
    await lab.sleep(1000);
    await lab.node('n1').kill();
    expect((await probe).outageMs).toBe(301);
    expect(fake.faults).toEqual(['kill n1']);
    const fault = timeline.find((e) => e.kind === 'fault');
    const outage = timeline.find((e) => e.kind === 'outage');
    expect(fault).toMatchObject({ atMs: 1000, source: 'n1', message: 'kill' });
    expect(outage).toMatchObject({ atMs: 1000, source: 'c1' });
    expect(outage?.message).toContain(
      'no replies from 198.18.0.192 for 301 ms (probes 1000..1300; served by n1, then n2)',
    );
  });

  it('keeps each probe call as a series on the scenario clock: served-by runs, and gaps with their lost probes', async () => {
    const { lab, fake, timeline } = setup();
    await lab.sleep(500);
    const runs = [
      { server: 'n1', firstSeq: 0, lastSeq: 99 },
      { server: 'n2', firstSeq: 130, lastSeq: 399 },
    ];
    const gap = {
      gapMs: 150.5,
      lastSeqBefore: 99,
      firstSeqAfter: 130,
      sentApartMs: 155,
      serverBefore: 'n1',
      serverAfter: 'n2',
    };
    fake.nextProbe = { sent: 400, received: 370, lost: 30, outageMs: 150.5, gaps: [gap], servers: [], runs };
    await lab.client('c1').probe('198.18.0.192', { ratePps: 200, seconds: 2 });
    expect(lab.probes).toEqual([
      {
        client: 'c1',
        target: '198.18.0.192',
        startedAtMs: 500,
        intervalMs: 5,
        sent: 400,
        received: 370,
        lost: 30,
        outageMs: 150.5,
        runs,
        // Probe 99 left 99 intervals after the start; 100..129 were lost.
        gaps: [{ atMs: 995, gapMs: 150.5, lostProbes: 30, serverBefore: 'n1', serverAfter: 'n2' }],
      },
    ]);
    expect(timeline.find((e) => e.kind === 'outage')?.atMs).toBe(995);
  });

  it('finds service addresses by family and says when one is missing', () => {
    const { lab } = setup();
    expect(lab.service('web').address()).toBe('198.18.0.192');
    expect(lab.service('web').address(6)).toBe('2001:db8::100');
  });

  it('a Service single-stack in the other family makes the scenario not applicable; none at all is an error', () => {
    const { lab, fake } = setup();
    fake.addresses = ['198.18.0.192'];
    expect(() => lab.service('web').address(6)).toThrowError(
      new NotApplicableError('service web is single-stack IPv4 in this topology; the scenario probes IPv6'),
    );
    fake.addresses = [];
    const none = (() => {
      try {
        lab.service('web').address();
      } catch (err) {
        return err;
      }
    })();
    expect(none).toEqual(new Error('service web has no IPv4 address'));
    expect(none).not.toBeInstanceOf(NotApplicableError);
  });

  it('a rolling restart restarts every node in turn', async () => {
    const { lab, fake } = setup();
    await lab.rollingRestart(100);
    expect(fake.faults).toEqual(['restart n1', 'restart n2', 'restart n3']);
    expect(fake.now()).toBe(300);
  });

  it('waits for a router to spread an address over the expected number of nodes, and says which it waited for', async () => {
    const { lab, fake } = setup();
    fake.routed = ['n1', 'n2'];
    fake.clock.setTimer('third route', 300, () => (fake.routed = ['n1', 'n2', 'n3']));
    await expect(lab.router('r1').expectEcmp('198.18.100.10', 3, { withinMs: 1000 })).resolves.toBeLessThan(
      1000,
    );
    fake.routed = ['n1'];
    await expect(lab.router('r1').expectEcmp('198.18.100.10', 3, { withinMs: 300 })).rejects.toThrow(
      'r1 forwards 198.18.100.10 to 3 nodes: not within 300 ms',
    );
  });

  it('moving endpoints and impairing a link reach the backend and the timeline', async () => {
    const { lab, fake, timeline } = setup();
    await lab.service('web').moveEndpoints(['n2']);
    await lab.impair('n1', { delayMs: 5, jitterMs: 0, lossPct: 1 });
    await lab.impair('n1', undefined);
    expect(fake.faults).toEqual(['endpoints web n2', 'impair n1 on', 'impair n1 off']);
    expect(timeline.map((e) => e.message)).toEqual([
      'web: endpoints now on n2',
      'impair link: delay 5 ms, jitter 0 ms, loss 1 %',
      'impair link: cleared',
    ]);
  });

  it('draws its chances from the scenario seed: the same seed, the same draws', () => {
    const draws = (seed: number) => {
      const lab = new ScenarioLab(new FakeLab(), () => undefined, seed);
      return [lab.random(), lab.random(), lab.random()];
    };
    expect(draws(7)).toEqual(draws(7));
    expect(draws(7)).not.toEqual(draws(8));
    for (const x of draws(9)) expect(x >= 0 && x < 1).toBe(true);
  });
});
