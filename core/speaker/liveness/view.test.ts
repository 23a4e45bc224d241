/**
 * The main thread's mirror of the membership view (client.ts), as the liveness thread hands it over in one
 * message of columns (agent.ts): the same members in the emulator, where messages pass as they are, and
 * behind a worker's port, which copies them.
 */
import { describe, expect, it } from 'vitest';
import { ConvergedView, type NodeRef } from '../../membership/index.ts';
import { channelPair, type Channel } from '../../runtime/channel.ts';
import { MemoryDatagramNetwork } from '../../runtime/memory-segment.ts';
import { Random } from '../../runtime/random.ts';
import { VirtualClock } from '../../runtime/virtual-clock.ts';
import { LivenessAgent } from './agent.ts';
import { LivenessClient } from './client.ts';
import type { FromLiveness, ToLiveness } from './messages.ts';

const nodes: readonly NodeRef[] = Object.freeze(
  [1, 2, 3, 4].map((i) => ({ name: `n${i}`, address: `198.18.0.${10 + i}` })),
);
const meta = (n: NodeRef) => ({ ready: true, interfaces: [{ name: 'eth0', of: n.name }] });

/** A worker's port: every message arrives as a structured clone. */
function cloning<In, Out>(c: Channel<In, Out>): Channel<In, Out> {
  return {
    post: (m) => c.post(structuredClone(m)),
    onMessage: (l) => c.onMessage((m) => l(structuredClone(m))),
  };
}

function cluster(o: { clone: boolean; converged?: ConvergedView }) {
  const clock = new VirtualClock();
  const net = new MemoryDatagramNetwork(clock, 0.2);
  return nodes.map((self, i) => {
    const [mainEnd, agentEnd] = channelPair<ToLiveness, FromLiveness>(clock, clock);
    const agent = new LivenessAgent({
      clock,
      random: new Random(i + 1),
      udp: net.bind(self.address, 7946),
      ports: [],
      self,
      nodes,
      meta: meta(self),
      ...(o.converged && { converged: o.converged }),
      mainLoopTimeoutMs: 60_000,
      channel: o.clone ? cloning(agentEnd) : agentEnd,
      log: () => {},
    });
    const client = new LivenessClient(clock, o.clone ? cloning(mainEnd) : mainEnd, 100, self.name);
    return { clock, agent, client };
  });
}

const mirrored = (c: LivenessClient) => c.members().map((m) => [m.name, m.state, m.incarnation, m.meta]);
const held = (a: LivenessAgent) =>
  a.membership.members().map((m) => [m.name, m.state, m.incarnation, m.meta]);

describe('the main thread’s view of membership', () => {
  for (const clone of [false, true]) {
    it(`mirrors the liveness thread’s members and changes${clone ? ', copied by a port' : ''}`, () => {
      const speakers = cluster({ clone });
      const clock = speakers[0]!.clock;
      clock.advance(0);
      // The first view, before any datagram arrived: itself alive, every other node unknown.
      for (const [i, { agent, client }] of speakers.entries()) {
        expect(mirrored(client)).toEqual(held(agent));
        expect(client.alive()).toEqual(new Set([nodes[i]!.name]));
        expect(client.synced()).toBe(false);
      }
      clock.advance(500);
      for (const { agent, client } of speakers) {
        expect(client.synced()).toBe(true);
        expect(mirrored(client)).toEqual(held(agent));
        expect(mirrored(client).map(([, state]) => state)).toEqual(['alive', 'alive', 'alive', 'alive']);
      }
    });
  }

  it('starts converged: synced, every node alive with its metadata, from the first message', () => {
    const converged = new ConvergedView(nodes.map((n) => ({ name: n.name, meta: meta(n) })));
    for (const { agent, client, clock } of cluster({ clone: true, converged })) {
      clock.advance(0);
      expect(client.synced()).toBe(true);
      expect(client.alive()).toEqual(new Set(nodes.map((n) => n.name)));
      expect(client.members().map((m) => m.meta)).toEqual(
        [...client.members()].map((m) => meta(nodes.find((n) => n.name === m.name)!)),
      );
      expect(mirrored(client)).toEqual(held(agent));
    }
  });
});
