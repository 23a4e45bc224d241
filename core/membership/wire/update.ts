import { MembershipEncodeError } from '../errors.ts';
import { utf8Length } from '../hash.ts';
import { metaObject } from '../shared-meta.ts';
import { type Reader, type Writer, checkInt, checkName } from './bytes.ts';

// One membership update: what a node's state is at an incarnation. Gossip, heartbeats (piggybacked),
// leave and anti-entropy sync all carry lists of these.
//
//   name(1+n) state(1) incarnation(4) then
//     alive: cause(1) metaLength(2) meta(JSON text of an object, UTF-8; empty = {})
//     dead:  by(1+n, the monitor that declared it) silentMs(4, how long it heard nothing)
//     left:  nothing

/** Why a node (re)announced itself alive; only the node itself issues alive updates. */
export type AliveCause = 'join' | 'refute' | 'meta' | 'resume';

export type Update =
  | {
      readonly node: string;
      readonly state: 'alive';
      readonly incarnation: number;
      readonly cause: AliveCause;
      /** JSON text of the node's metadata object, '' for none. */
      readonly meta: string;
    }
  | {
      readonly node: string;
      readonly state: 'dead';
      readonly incarnation: number;
      readonly by: string;
      readonly silentMs: number;
    }
  | { readonly node: string; readonly state: 'left'; readonly incarnation: number };

const STATE_CODES = { alive: 1, dead: 2, left: 3 } as const;
const CAUSES: readonly AliveCause[] = ['join', 'refute', 'meta', 'resume'];

/** Largest metadata text an update may carry; keeps one update well inside a datagram. */
export const MAX_META_BYTES = 512;

export function updateByteLength(u: Update): number {
  const base = 1 + utf8Length(u.node) + 1 + 4;
  switch (u.state) {
    case 'alive':
      return base + 1 + 2 + utf8Length(u.meta);
    case 'dead':
      return base + 1 + utf8Length(u.by) + 4;
    case 'left':
      return base;
  }
}

export function writeUpdate(w: Writer, u: Update): void {
  checkName(u.node, 'update node');
  checkInt(u.incarnation, 0, 0xffff_ffff, 'update incarnation');
  w.name(u.node);
  w.u8(STATE_CODES[u.state]);
  w.u32(u.incarnation);
  switch (u.state) {
    case 'alive': {
      const n = utf8Length(u.meta);
      if (n > MAX_META_BYTES) throw new MembershipEncodeError(`meta of ${u.node} is ${n} bytes`);
      w.u8(CAUSES.indexOf(u.cause));
      w.u16(n);
      w.text(u.meta);
      return;
    }
    case 'dead':
      checkName(u.by, 'update by');
      checkInt(u.silentMs, 0, 0xffff_ffff, 'update silentMs');
      w.name(u.by);
      w.u32(u.silentMs);
      return;
    case 'left':
      return;
  }
}

export function readUpdate(r: Reader): Update {
  const node = r.name('update node');
  const stateAt = r.offset;
  const state = r.u8('update state');
  const incarnation = r.u32('update incarnation');
  switch (state) {
    case STATE_CODES.alive: {
      const causeAt = r.offset;
      const cause = CAUSES[r.u8('alive cause')];
      if (cause === undefined) r.fail('bad-cause', 'unknown alive cause', causeAt);
      const lengthAt = r.offset;
      const length = r.u16('meta length');
      if (length > MAX_META_BYTES)
        r.fail('bad-meta', `meta of ${length} bytes > ${MAX_META_BYTES}`, lengthAt);
      const meta = r.text(length, 'meta', 'bad-meta');
      if (length > 0 && metaObject(meta) === undefined)
        r.fail('bad-meta', 'meta is not a JSON object', lengthAt + 2);
      return { node, state: 'alive', incarnation, cause, meta };
    }
    case STATE_CODES.dead: {
      const by = r.name('dead by');
      const silentMs = r.u32('dead silentMs');
      return { node, state: 'dead', incarnation, by, silentMs };
    }
    case STATE_CODES.left:
      return { node, state: 'left', incarnation };
    default:
      return r.fail('bad-state', `state ${state} is not alive (1), dead (2) or left (3)`, stateAt);
  }
}
