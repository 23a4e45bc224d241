// The attacker of speaker-auth.netns.test.ts, run inside its namespace: replays recorded membership
// datagrams to where they first went, at their first pace, from an address and port of its choice (its
// own, or a dead node's: bound with net.ipv4.ip_nonlocal_bind, nothing is added to an interface), looping
// over the recording until the time is up; bounded by --seconds and by --max datagrams. It prints
// {"ready":true} once bound and starts on a line "go" on its standard input, so the first datagram can
// follow a fault within a millisecond; it prints {"sent": N} when done.
// Usage: node --import tsx datagram-replay.netns-child.ts --from ADDRESS --port PORT --file JSON --seconds S
// where JSON holds [{ "to": "198.18.0.12", "port": 7946, "atMs": 12.5, "hex": "4c41..." }, ...].
import { createSocket } from 'node:dgram';
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    from: { type: 'string' },
    port: { type: 'string' },
    file: { type: 'string' },
    seconds: { type: 'string' },
    max: { type: 'string', default: '100000' },
  },
});
const recorded = JSON.parse(await readFile(values.file!, 'utf8')) as {
  to: string;
  port: number;
  atMs: number;
  hex: string;
}[];
if (recorded.length === 0) throw new Error('nothing recorded to replay');
const seconds = Math.min(Number(values.seconds), 60);
const max = Number(values.max);
const socket = createSocket('udp4');
await new Promise<void>((resolve) => socket.bind(Number(values.port), values.from, resolve));
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
const span = recorded.at(-1)!.atMs - recorded[0]!.atMs + 1;
const start = performance.now();
let sent = 0;
for (let round = 0; sent < max; round++) {
  for (const r of recorded) {
    const due = start + round * span + (r.atMs - recorded[0]!.atMs);
    if (due - start > seconds * 1000 || sent >= max) break;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    socket.send(Buffer.from(r.hex, 'hex'), r.port, r.to);
    sent++;
  }
  if ((round + 1) * span > seconds * 1000) break;
}
socket.close();
process.stdout.write(`${JSON.stringify({ sent })}\n`);
