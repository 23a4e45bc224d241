import { describe, expect, it } from 'vitest';
import { readTopology } from '../../model/index.ts';
import { checkImpairable, KindSharedSegmentError } from './kind-impairment.ts';

describe('checkImpairable', () => {
  it('lets the router–client link be impaired and refuses every link on the kind network, saying why', async () => {
    const read = await readTopology('topologies/bgp-three-nodes.yaml');
    if (!read.ok) throw new Error('topology');
    const check = (host: string, iface?: string) =>
      checkImpairable(read.topology, new Set(['lan']), 'lblab-kind-abc123', host, iface);
    expect(() => check('c1')).not.toThrow();
    expect(() => check('r1', 'eth1')).not.toThrow();
    for (const [host, iface] of [
      ['n1', undefined],
      ['r1', undefined],
      ['r1', 'eth0'],
    ] as const) {
      let err: unknown;
      try {
        check(host, iface);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(KindSharedSegmentError);
      expect((err as KindSharedSegmentError).code).toBe('KIND_IMPAIR_SHARED_SEGMENT');
      expect((err as Error).message).toBe(
        `impairing ${host} eth0: segment lan is the kind network lblab-kind-abc123, shared by every node, ` +
          'router and client on it; the kind backend impairs point-to-point links between routers and clients only',
      );
    }
  });
});
