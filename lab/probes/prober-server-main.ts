/**
 * `node --import tsx lab/probes/prober-server-main.ts`: a long-lived prober for a lab client. Each stdin
 * line `{"id":1,"target":"198.18.0.192","port":7777,"ratePps":1000,"seconds":4}` starts a probe run at
 * once; its summary comes back as `{"id":1,"summary":{...}}` (or `{"id":1,"error":"..."}`). Runs may
 * overlap. A scenario probes many short times (waiting until an address answers) and must start a probe
 * a known moment before a fault: starting node and tsx for each probe would cost ~0.5 s every time.
 */
import { createInterface } from 'node:readline';
import { probe } from './prober.ts';

interface Request {
  id: number;
  target: string;
  port: number;
  ratePps: number;
  seconds: number;
}

const reply = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

createInterface({ input: process.stdin }).on('line', (line) => {
  const r = JSON.parse(line) as Request;
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
process.stdin.on('end', () => process.exit(0));
reply({ ready: true });
