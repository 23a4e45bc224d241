/**
 * keepalived on every lblab-node of a netns lab, in place of `lblab speaker`, when a run compares lblab
 * with it (`lblab run --peer keepalived`). The same fault verbs as LabSpeakers, with keepalived's
 * processes: a crash is SIGKILL, a leave SIGTERM (priority 0 advert), a hang SIGSTOP plus drop-all. The
 * service addresses live on the node's segment interface while keepalived is master for them, so
 * "announces" means "is master and holds the address" (read from `ip addr`, not from a log).
 */
import { nodePriority } from '../../sut/keepalived-config.ts';
import { startKeepalived, type KeepalivedNode } from '../../sut/keepalived.ts';
import type { UpOptions } from '../../runner/backend.ts';
import type { Netns } from './namespace.ts';
import type { DetachedProgram } from './lab-programs.ts';
import type { LabNodeSoftware } from './node-control.ts';
import { silence, unsilence, type Silenced } from './silence.ts';
import { allDone } from '../all-done.ts';

interface Member {
  node: KeepalivedNode;
  silenced?: Silenced;
}

export class LabKeepaliveds implements LabNodeSoftware {
  private readonly members = new Map<string, Member>();

  /** `nodes`: every lblab-node with the interface VRRP runs on, in priority order (the first is master). */
  constructor(
    private readonly host: (name: string) => Netns,
    private readonly nodes: readonly { name: string; interface: string }[],
    private readonly addresses: readonly string[],
    private readonly o: Pick<UpOptions, 'timeline'> & { detached?: boolean },
  ) {}

  /**
   * Every node's keepalived, started together so the first election is the protocol's own; returns once
   * it has settled. Started together, several nodes can time out as BACKUP before any advert arrives
   * and all become MASTER for a moment, each announcing the address; the one left holding it after the
   * adverts sort it out does not announce again, so a client that asked during that moment would keep a
   * loser's MAC. The lab is up once every address has had one master for a while.
   */
  async startAll(): Promise<void> {
    await allDone(this.nodes.map((n) => this.start(n.name)));
    await this.oneMasterEach();
  }

  private async oneMasterEach(withinMs = 10_000, stableMs = 500): Promise<void> {
    const end = performance.now() + withinMs;
    let since: number | undefined;
    while (performance.now() < end) {
      const holders = await Promise.all(this.addresses.map((a) => this.announcers(a)));
      if (!holders.every((h) => h.length === 1)) since = undefined;
      else if (performance.now() - (since ??= performance.now()) >= stableMs) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    this.o.timeline({
      source: 'lab',
      kind: 'lab',
      message: `keepalived: not one master for every address within ${withinMs / 1000} s`,
    });
  }

  has(name: string): boolean {
    return this.members.get(name)?.node.running ?? false;
  }

  /** Starts `name`'s keepalived: the first time with a new work dir, later with the same config. */
  async start(name: string): Promise<void> {
    const existing = this.members.get(name);
    if (existing) {
      await existing.node.start();
    } else {
      const index = this.nodes.findIndex((n) => n.name === name);
      const spec = {
        name,
        interface: this.nodes[index]!.interface,
        priority: nodePriority(index, this.nodes.length),
        addresses: this.addresses,
      };
      const node = await startKeepalived(this.host(name), spec, { detached: this.o.detached ?? false });
      this.members.set(name, { node });
    }
    this.o.timeline({ source: name, kind: 'lifecycle', message: 'keepalived started' });
  }

  /** SIGKILL (a crash, addresses left behind) or SIGTERM (a leave); resolves once the processes are gone. */
  async stop(name: string, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
    const m = this.members.get(name);
    if (!m) return;
    if (m.silenced) await this.resume(name);
    await (signal === 'SIGKILL' ? m.node.kill() : m.node.stop());
    this.o.timeline({ source: name, kind: 'lifecycle', message: `keepalived exited (${signal})` });
  }

  /** Before a killed node comes back: what keepalived left on the interface goes, as a reboot would. */
  async dropLeftovers(name: string): Promise<void> {
    await this.members.get(name)?.node.dropLeftovers();
  }

  async hang(name: string): Promise<void> {
    const m = this.members.get(name);
    if (!m || m.silenced || !m.node.running) return;
    m.silenced = await silence(this.host(name), await m.node.pids());
  }

  async resume(name: string): Promise<void> {
    const m = this.members.get(name);
    if (!m?.silenced) return;
    await unsilence(m.silenced);
    delete m.silenced;
  }

  /** Nodes whose keepalived runs (not frozen) and holds `address`: the master for it. */
  async announcers(address: string): Promise<string[]> {
    const out: string[] = [];
    for (const [name, m] of this.members)
      if (m.node.running && !m.silenced && (await m.node.holds(address))) out.push(name);
    return out;
  }

  /** Thaws, ends and removes every keepalived (the VRRP children are not the lab's to end by itself). */
  async removeAll(errors: unknown[]): Promise<void> {
    for (const m of this.members.values()) {
      if (m.silenced) await unsilence(m.silenced).catch((err: unknown) => errors.push(err));
      await m.node.remove().catch((err: unknown) => errors.push(err));
    }
    this.members.clear();
  }

  /** A detached lab's keepalived processes, so `lblab lab down` ends them by PID too. */
  async detachedPrograms(): Promise<DetachedProgram[]> {
    const out: DetachedProgram[] = [];
    for (const [name, m] of this.members)
      for (const pid of await m.node.pids())
        out.push({ host: name, program: 'keepalived', pid, log: m.node.workDir });
    return out;
  }
}
