import type { Refusal } from '../../membership/index.ts';
import type { DatagramAddress } from '../../runtime/ports.ts';

/** How often one kind of refusal from one source is logged again, with the count meanwhile. */
const REPEAT_MS = 10_000;
/** Sources remembered at most (a flood from spoofed addresses must not grow this without bound). */
const MAX_SOURCES = 1024;

/**
 * Turns refused membership datagrams into log lines an operator can act on: the first of each kind from
 * each source at once, then at most one line per kind and source every 10 s with how many there were.
 * Malformed and foreign datagrams are not security events and are only counted.
 */
export class RefusalLog {
  private readonly sources = new Map<string, { loggedAt: number; since: number }>();

  constructor(
    private readonly now: () => number,
    private readonly log: (message: string) => void,
  ) {}

  note(refusal: Refusal, from: DatagramAddress, sender: string | undefined): void {
    if (refusal === 'malformed' || refusal === 'foreign') return;
    const key = `${refusal} ${from.address}:${from.port}`;
    const now = this.now();
    let s = this.sources.get(key);
    if (s === undefined) {
      if (this.sources.size >= MAX_SOURCES) this.sources.clear();
      s = { loggedAt: -Infinity, since: 0 };
      this.sources.set(key, s);
    }
    s.since++;
    if (now - s.loggedAt < REPEAT_MS) return;
    const claiming = sender === undefined ? '' : ` claiming to be ${sender}`;
    this.log(
      `refused ${s.since} ${refusal} membership datagram${s.since === 1 ? '' : 's'} from ${from.address}:${from.port}${claiming}${describe(refusal)}`,
    );
    s.loggedAt = now;
    s.since = 0;
  }
}

function describe(refusal: Refusal): string {
  switch (refusal) {
    case 'unauthenticated':
      return ' (not sealed: a speaker without the membership key?)';
    case 'forged':
      return ' (sealed under a key we do not hold, or tampered with)';
    case 'replayed':
      return ' (seen before: someone is replaying recorded datagrams)';
    default:
      return '';
  }
}
