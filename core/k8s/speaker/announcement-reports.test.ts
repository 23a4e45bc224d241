/** Reports follow the speakers' changes, one per instant, and pick up a BGP speaker started later. */
import { describe, expect, it } from 'vitest';
import type { L2Assignment } from '../../l2/election/index.ts';
import { IpAddress } from '../../net/index.ts';
import { VirtualClock } from '../../runtime/virtual-clock.ts';
import { world } from '../../speaker/l2-world.test-support.ts';
import { AnnouncementReports } from './announcement-reports.ts';
import type { Announcements, BgpView } from './announcements.ts';

function fakeL2() {
  const listeners = new Set<() => void>();
  let last: L2Assignment[] = [];
  return {
    assignments: () => last,
    onElected: (l: () => void) => (listeners.add(l), () => listeners.delete(l)),
    elect(owner: string) {
      last = [
        {
          service: 'lab/web',
          ips: [IpAddress.parse('198.18.0.200')],
          pool: 'p',
          result: { owner, interfaces: ['eth0'], candidates: [owner], reason: 'r' },
        },
      ];
      for (const l of listeners) l();
    },
  };
}

describe('announcement reports', () => {
  it('one report per instant, after the election; a BGP speaker started later joins in', () => {
    const clock = new VirtualClock();
    const l2 = fakeL2();
    const reports: Announcements[] = [];
    const late: { bgp?: BgpView & { onChange(l: () => void): () => void } } = {};
    const r = new AnnouncementReports({
      node: 'n1',
      clock,
      l2,
      bgp: () => late.bgp,
      sinks: [{ update: (a) => reports.push(a) }],
    });
    l2.elect('n2');
    l2.elect('n1');
    clock.advance(1);
    expect(reports.map((a) => a.statuses.map((s) => s.serviceName))).toEqual([['web']]);
    const listeners = new Set<() => void>();
    late.bgp = {
      announcedPeers: () => new Map([['lab/api', ['r1']]]),
      sessionUp: () => true,
      onChange: (l) => (listeners.add(l), () => listeners.delete(l)),
    };
    const fire = () => listeners.forEach((l) => l());
    r.watchBgp();
    clock.advance(1);
    expect(reports.at(-1)!.statuses.map((s) => `${s.protocol} ${s.serviceName}`)).toEqual([
      'layer2 web',
      'bgp api',
    ]);
    fire();
    clock.advance(1);
    expect(reports).toHaveLength(3);
    r.close();
    fire();
    l2.elect('n1');
    clock.advance(1);
    expect(reports).toHaveLength(3);
  });

  it('with real speakers: exactly the owner reports a status object for the address', () => {
    const w = world(5);
    const got = new Map<string, Announcements>();
    for (const n of w.nodes)
      new AnnouncementReports({
        node: n.name,
        clock: w.clock,
        l2: n.speaker,
        sinks: [{ update: (a) => got.set(n.name, a) }],
      });
    w.clock.advance(2000);
    const [owner] = w.answering();
    const reporting = [...got].filter(([, a]) => a.statuses.length > 0).map(([name]) => name);
    expect(reporting).toEqual([owner]);
    expect(got.get(owner!)!.statuses).toEqual([
      { protocol: 'layer2', serviceNamespace: 'lab', serviceName: 'web', interfaces: ['eth0'] },
    ]);
  });
});
