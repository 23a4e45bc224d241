import { describe, expect, it } from 'vitest';
import { notPeered } from './router-peering.ts';

const established = (address: string) => ({ address, state: 'established' }) as const;

describe('notPeered', () => {
  it('is empty once every BGP session is established and every BFD neighbour has an Up session', () => {
    const r = {
      name: 'r1',
      sessions: [established('198.18.0.11'), established('2001:db8::11')],
      bfd: [
        { peer: '198.18.0.11', state: 'up' as const },
        // FRR prints IPv6 peers compressed; a spec may spell them out.
        { peer: '2001:db8::11', state: 'up' as const },
      ],
    };
    expect(notPeered(r, ['198.18.0.11', '2001:0db8:0:0:0:0:0:11'])).toEqual([]);
  });

  it('names a BFD neighbour the daemon does not list yet, and one listed but not Up', () => {
    const r = {
      name: 'r1',
      sessions: [established('198.18.0.11'), established('198.18.0.12'), established('198.18.0.13')],
      bfd: [
        { peer: '198.18.0.11', state: 'up' as const },
        { peer: '198.18.0.12', state: 'init' as const },
      ],
    };
    expect(notPeered(r, ['198.18.0.11', '198.18.0.12', '198.18.0.13'])).toEqual([
      'r1: BFD 198.18.0.12 init',
      'r1: BFD 198.18.0.13 not listed',
    ]);
  });

  it('names BGP sessions not established, and asks nothing of BFD for neighbours without it', () => {
    const r = {
      name: 'r1',
      sessions: [established('198.18.0.11'), { address: '198.18.0.12', state: 'active' as const }],
      bfd: [],
    };
    expect(notPeered(r, [])).toEqual(['r1: BGP 198.18.0.12 active']);
  });
});
