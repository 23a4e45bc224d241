/**
 * The API test server as a process, for tests that need it elsewhere than in their own process (a lab
 * network namespace that speakers reach over the lab network). It is a *test* server, not Kubernetes.
 *
 *   node --import tsx lab/kube-api/kube-api-main.ts --listen ADDRESS --port PORT [options]
 *
 * Prints one JSON line when it listens: {"event":"listening","url","host","port","user","token"}.
 * Then takes one JSON command per stdin line, {"id":N,"op":...} (commands.ts lists them), and answers
 * each with {"id":N,"ok":true,...} or {"id":N,"ok":false,"message":...}. It exits when stdin closes.
 */
import { parseArgs } from 'node:util';
import { emitLine, serveJsonLines } from '../../core/runtime/json-lines-child.test-support.ts';
import type { Command } from './commands.ts';
import { runCommand } from './commands.ts';
import { adminUser, KubeApiTestServer } from './server.ts';

const usage = `usage: kube-api-main.ts --listen ADDRESS --port PORT [--token TOKEN]
       [--bookmark-interval-ms MS] [--history-limit N]

Runs the lblab API test server (an in-process stand-in for kube-apiserver, for tests) until stdin closes.
  --listen ADDRESS            address to listen on (default 127.0.0.1)
  --port PORT                 TCP port (default 0: any free port; the listening line says which)
  --token TOKEN               bearer token of the admin user (default: random)
  --bookmark-interval-ms MS   how often watches that allow bookmarks get one (default 1000)
  --history-limit N           changes kept for watches to resume across (default 10000)
  --help                      print this and exit
stdin: one JSON command per line, e.g. {"id":1,"op":"apply","object":{...}}; see lab/kube-api/commands.ts.`;

function fail(message: string): never {
  process.stderr.write(`${message}\n${usage}\n`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      listen: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '0' },
      token: { type: 'string' },
      'bookmark-interval-ms': { type: 'string', default: '1000' },
      'history-limit': { type: 'string', default: '10000' },
      help: { type: 'boolean', default: false },
    },
  }));
} catch (e) {
  fail(e instanceof Error ? e.message : String(e));
}
if (values.help) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}
const number = (name: string, text: string): number => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0) fail(`--${name} must be a whole number, not ${JSON.stringify(text)}`);
  return n;
};

const server = await KubeApiTestServer.start({
  host: values.listen,
  port: number('port', values.port),
  bookmarkIntervalMs: number('bookmark-interval-ms', values['bookmark-interval-ms']),
  historyLimit: number('history-limit', values['history-limit']),
  ...(values.token === undefined ? {} : { token: values.token }),
}).catch((e: unknown) => fail(e instanceof Error ? e.message : String(e)));
const token = values.token === undefined ? server.token : server.addUser(adminUser, values.token);
emitLine({
  event: 'listening',
  url: server.url,
  host: values.listen,
  port: server.port,
  user: adminUser,
  token,
});

await serveJsonLines<Command & { id: number }>((request) => runCommand(server, request));
await server.close();
process.exit(0);
