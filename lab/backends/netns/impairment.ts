/**
 * Link impairments with tc netem: delay (with jitter), loss and a rate limit on a veth, applied on both
 * of its ends so that both directions suffer. netem is a kernel option (CONFIG_NET_SCH_NETEM) that some
 * kernels lack; netemSupport() says so before a scenario relies on it.
 */
import { execFileSync } from 'node:child_process';
import type { Impairment } from '../../model/topology.ts';
import { checkInterfaceName } from './names.ts';
import type { Netns } from './namespace.ts';

/** One end of a link: the interface and the namespace it lives in. */
export interface LinkEnd {
  ns: Netns;
  iface: string;
}

/** Whether the impairment changes anything (the model's default is all zeros, no rate). */
export function impairs(i: Impairment): boolean {
  return i.delayMs > 0 || i.jitterMs > 0 || i.lossPct > 0 || i.rateMbps !== undefined;
}

/** `tc qdisc replace … root netem` arguments after "netem"; jitter needs a delay to vary around. */
export function netemArgs(i: Impairment): string[] {
  const args: string[] = [];
  if (i.delayMs > 0 || i.jitterMs > 0)
    args.push('delay', `${i.delayMs}ms`, ...(i.jitterMs > 0 ? [`${i.jitterMs}ms`] : []));
  if (i.lossPct > 0) args.push('loss', `${i.lossPct}%`);
  if (i.rateMbps !== undefined) args.push('rate', `${i.rateMbps}mbit`);
  return args;
}

/** Puts `impairment` on every end's egress (so both directions), or removes it (`undefined`). */
export async function impairLink(
  ends: readonly LinkEnd[],
  impairment: Impairment | undefined,
): Promise<void> {
  for (const { ns, iface } of ends) {
    const dev = checkInterfaceName(iface);
    if (impairment === undefined || !impairs(impairment)) {
      // Nothing to delete is fine: the link was not impaired.
      await ns.exec(['tc', 'qdisc', 'del', 'dev', dev, 'root']).catch(() => undefined);
      continue;
    }
    await ns.exec(['tc', 'qdisc', 'replace', 'dev', dev, 'root', 'netem', ...netemArgs(impairment)]);
  }
}

let netem: true | string | undefined;

/**
 * `true` when this kernel has netem, else why not. Tried once, in a network namespace made for the test
 * alone (`unshare -n`), so no interface of the host's is touched.
 */
export function netemSupport(): true | string {
  if (netem !== undefined) return netem;
  try {
    execFileSync('unshare', ['-n', 'tc', 'qdisc', 'add', 'dev', 'lo', 'root', 'netem', 'delay', '1ms'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 5000,
    });
    netem = true;
  } catch (err) {
    const stderr = String((err as { stderr?: Buffer }).stderr ?? '').trim();
    netem = `tc netem does not work here (the kernel needs CONFIG_NET_SCH_NETEM): ${stderr || (err as Error).message}`;
  }
  return netem;
}
