import { createHash } from 'node:crypto';
import type { Clock } from '../../runtime/clock.ts';
import { MembershipConfigError } from '../errors.ts';
import type { EnvelopeKey } from './envelope.ts';

/** Shorter keys are refused: a shared secret must be hard to guess (128 bits at least). */
export const MIN_KEY_BYTES = 16;

/** The id an envelope names a key by: the first four bytes of a hash of it (never the key itself). */
export function keyId(secret: Uint8Array): number {
  return createHash('sha256').update('lblab membership key\n').update(secret).digest().readUInt32BE(0);
}

export function envelopeKey(secret: Uint8Array): EnvelopeKey {
  if (secret.length < MIN_KEY_BYTES)
    throw new MembershipConfigError('key', `must be at least ${MIN_KEY_BYTES} bytes, got ${secret.length}`);
  return { id: keyId(secret), secret: Uint8Array.from(secret) };
}

/**
 * The shared keys a speaker seals and checks membership datagrams with, and their rotation. A new key is
 * accepted at once, but datagrams keep going out under the old one for `rotationMs`, so speakers that see
 * the new key a little later (each reads it on its own) still hear this one; then the new key seals, and
 * the old one is still accepted for `rotationMs` more, for the speakers that switched a little later.
 */
export class Keyring {
  private current: EnvelopeKey;
  private previous: { key: EnvelopeKey; sealsUntil: number; acceptedUntil: number } | undefined;

  constructor(
    private readonly clock: Clock,
    secret: Uint8Array,
    private readonly rotationMs: number,
  ) {
    this.current = envelopeKey(secret);
  }

  /** Rotates to `secret`; the same key again changes nothing. Returns whether it was a new key. */
  rotate(secret: Uint8Array): boolean {
    const next = envelopeKey(secret);
    if (next.id === this.current.id && equal(next.secret, this.current.secret)) return false;
    const now = this.clock.now();
    // A rotation during a rotation: whatever seals now keeps sealing until the newest key takes over.
    const sealing = this.sealing();
    this.previous = {
      key: sealing,
      sealsUntil: now + this.rotationMs,
      acceptedUntil: now + 2 * this.rotationMs,
    };
    this.current = next;
    return true;
  }

  /** The key datagrams go out under now. */
  sealing(): EnvelopeKey {
    const p = this.previous;
    return p !== undefined && this.clock.now() < p.sealsUntil ? p.key : this.current;
  }

  /** The secret of an accepted key with this id, if any. */
  secretFor(id: number): Uint8Array | undefined {
    if (id === this.current.id) return this.current.secret;
    const p = this.previous;
    if (p !== undefined && id === p.key.id && this.clock.now() < p.acceptedUntil) return p.key.secret;
    return undefined;
  }
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
