// Runs inside a network namespace for echo.netns.test.ts: a BfdEngine on real UDP sockets and the raw echo
// network, with one session, as the speaker's BFD worker runs it (sockets belong to the namespace of the
// process that creates them, and the test process stays in the host's).
// Usage: node --import tsx echo-engine.netns-child.ts '<BfdPeerSpec as JSON>'
// stdin, one JSON request per line: {id, op: 'info'} -> {session, counters} (the session as
// BfdEngine.sessions() has it). stdout, one JSON object per line: {id, ok: true, ...result} |
// {id, ok: false, message} | {event: 'change', state, previous, diagnostic, reason} for every state change.
// End of input shuts the engine down (AdminDown to the peer) and closes the networks; the process exits.
import { BfdEngine, type BfdPeerSpec } from '../../bfd/engine/index.ts';
import { emitLine, serveJsonLines } from '../json-lines-child.test-support.ts';
import { Random } from '../random.ts';
import { RealClock } from '../real-clock.ts';
import { AfPacketEchoNetwork } from './echo-network.ts';
import { interfaceOfAddress } from './echo-interface.ts';
import { UdpBfdNetwork } from './udp-network.ts';

const spec = JSON.parse(process.argv[2] ?? '{}') as BfdPeerSpec;
const network = new UdpBfdNetwork();
const echo = new AfPacketEchoNetwork({ interfaceOf: (address) => interfaceOfAddress(address) });
const engine = new BfdEngine({ clock: new RealClock(), random: new Random(1), network, echo });
engine.onStateChange((c) =>
  emitLine({
    event: 'change',
    state: c.state,
    previous: c.previous,
    diagnostic: c.diagnostic,
    reason: c.reason,
  }),
);
await engine.add(spec);
emitLine({ event: 'started' });

await serveJsonLines<{ id: number; op: string }>(async (request) => {
  if (request.op !== 'info') throw new Error(`unknown op ${request.op}`);
  return { session: engine.sessions()[0], counters: engine.counters };
});
await engine.shutdown();
await Promise.all([network.close(), echo.close()]);
