import type { ControlPacket } from '../codec.ts';
import type { BfdSession } from '../session/session.ts';

export interface TableEntry {
  readonly key: string;
  readonly peerAddress: string;
  readonly multihop: boolean;
  readonly session: BfdSession;
}

/** The engine's sessions, indexed the ways RFC 5880 §6.8.6 looks a received packet up. */
export class SessionTable<E extends TableEntry> {
  private readonly byKey = new Map<string, E>();
  private readonly byDiscriminator = new Map<number, E>();
  /** Sessions by peer address and hop kind, for packets whose Your Discriminator is still zero. */
  private readonly bySource = new Map<string, E[]>();

  add(e: E): void {
    this.byKey.set(e.key, e);
    this.byDiscriminator.set(e.session.localDiscriminator, e);
    const source = sourceKey(e.peerAddress, e.multihop);
    this.bySource.set(source, [...(this.bySource.get(source) ?? []), e]);
  }

  remove(e: E): void {
    if (this.byKey.get(e.key) !== e) return;
    this.byKey.delete(e.key);
    this.byDiscriminator.delete(e.session.localDiscriminator);
    const source = sourceKey(e.peerAddress, e.multihop);
    const rest = (this.bySource.get(source) ?? []).filter((x) => x !== e);
    if (rest.length === 0) this.bySource.delete(source);
    else this.bySource.set(source, rest);
  }

  get(key: string): E | undefined {
    return this.byKey.get(key);
  }

  hasDiscriminator(d: number): boolean {
    return this.byDiscriminator.has(d);
  }

  /** The session whose bfd.LocalDiscr is `d`. */
  withDiscriminator(d: number): E | undefined {
    return this.byDiscriminator.get(d);
  }

  values(): E[] {
    return [...this.byKey.values()];
  }

  /** The session a packet belongs to, or why none does. `from` is the canonical source address. */
  match(p: ControlPacket, from: string, multihop: boolean): E | string {
    if (p.yourDiscriminator !== 0) {
      // RFC 5880 §6.8.6: a nonzero Your Discriminator "MUST be used to select the session"; if there is
      // none, the packet MUST be discarded. The source may change once discriminators are known (§6.3).
      const e = this.byDiscriminator.get(p.yourDiscriminator);
      if (e === undefined) return `no session has discriminator ${p.yourDiscriminator}`;
      // A single-hop session only takes what came to port 3784 with TTL 255 (RFC 5881 §5), a multihop one
      // what came to 4784 (RFC 5883 §5): otherwise a distant sender could bypass the single-hop TTL check.
      if (e.multihop !== multihop) {
        return `discriminator ${p.yourDiscriminator} is a ${e.multihop ? 'multihop' : 'single-hop'} session`;
      }
      return e;
    }
    // RFC 5880 §6.8.6: with Your Discriminator zero the session is chosen by other fields, here the source
    // address and the port it came to (RFC 5881 §3, RFC 5883 §4). The network does not tell us the
    // destination address, so two sessions to one peer from different local addresses are told apart by
    // the peer's My Discriminator if one session already knows it, else the first one not yet bound.
    const candidates = this.bySource.get(sourceKey(from, multihop));
    if (candidates === undefined) return `no ${multihop ? 'multihop' : 'single-hop'} session with ${from}`;
    const bound = candidates.find((e) => e.session.remoteDiscriminator === p.myDiscriminator);
    const free = candidates.find((e) => e.session.remoteDiscriminator === 0);
    return bound ?? free ?? candidates[0]!;
  }
}

function sourceKey(address: string, multihop: boolean): string {
  return `${multihop ? 'multihop' : 'single-hop'} ${address}`;
}
