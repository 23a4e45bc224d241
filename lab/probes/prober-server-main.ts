/**
 * `node --import tsx lab/probes/prober-server-main.ts`: a long-lived prober for a lab client. Each stdin
 * line `{"id":1,"target":"198.18.0.192","port":7777,"ratePps":1000,"seconds":4}` starts a probe run at
 * once; its summary comes back as `{"id":1,"summary":{...}}` (or `{"id":1,"error":"..."}`). Runs may
 * overlap. A scenario probes many short times (waiting until an address answers) and must start a probe
 * a known moment before a fault: starting node and tsx for each probe would cost ~0.5 s every time.
 * `{"id":2,"ask":{"interface":"eth0","source":…,"target":…,"ms":150,"everyMs":50}}` asks the segment
 * who answers ARP/NDP for the target (neighbour-ask.ts): `{"id":2,"macs":[…]}`; the kind lab asks this
 * as often as it polls for announcers.
 */
import { createInterface } from 'node:readline';
import { AfPacketPort } from '../../core/runtime/af-packet-port.ts';
import { askNeighbours, type NeighbourAsk } from './neighbour-ask.ts';
import { probe } from './prober.ts';

interface Request {
  id: number;
  target: string;
  port: number;
  ratePps: number;
  seconds: number;
  ask?: NeighbourAsk & { interface: string };
}

/** The port for each interface asked on, opened once (a socket per ask would be torn down each time). */
const ports = new Map<string, AfPacketPort>();
const portOn = (name: string) => ports.get(name) ?? ports.set(name, AfPacketPort.open(name)).get(name)!;

const reply = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

createInterface({ input: process.stdin }).on('line', (line) => {
  const r = JSON.parse(line) as Request;
  if (r.ask) {
    const ask = r.ask;
    Promise.resolve()
      .then(() => askNeighbours(portOn(ask.interface), ask))
      .then(
        (macs) => reply({ id: r.id, macs }),
        (err: unknown) => reply({ id: r.id, error: (err as Error).message }),
      );
    return;
  }
  const durationMs = r.seconds * 1000;
  probe({
    target: r.target,
    port: r.port,
    ratePps: r.ratePps,
    durationMs,
    count: Math.ceil(r.seconds * r.ratePps),
  }).then(
    (summary) => reply({ id: r.id, summary }),
    (err: unknown) => reply({ id: r.id, error: (err as Error).message }),
  );
});
// The lab ends the prober by closing stdin (or by SIGKILL when it tears the namespace down).
process.stdin.on('end', () => {
  for (const p of ports.values()) p.close();
  process.exit(0);
});
reply({ ready: true });
