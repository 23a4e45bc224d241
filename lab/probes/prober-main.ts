/**
 * `node --import tsx lab/probes/prober-main.ts --target VIP [--port 7777] [--rate 1000] [--seconds 10]`:
 * probes a service address from a lab client and prints the summary as one JSON line.
 */
import { parseArgs } from 'node:util';
import { probe } from './prober.ts';

const { values } = parseArgs({
  options: {
    target: { type: 'string' },
    port: { type: 'string', default: '7777' },
    rate: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '10' },
  },
});
if (!values.target) throw new Error('--target is required');
const ratePps = Number(values.rate);
const durationMs = Number(values.seconds) * 1000;
const summary = await probe({
  target: values.target,
  port: Number(values.port),
  ratePps,
  durationMs,
  count: Math.ceil((durationMs / 1000) * ratePps),
});
process.stdout.write(`${JSON.stringify(summary)}\n`);
