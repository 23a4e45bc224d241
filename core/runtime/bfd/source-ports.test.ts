import { describe, expect, it } from 'vitest';
import { BFD_SOURCE_PORTS } from '../../bfd/ports.ts';
import { SourcePorts } from './source-ports.ts';

const RANGE = BFD_SOURCE_PORTS.max - BFD_SOURCE_PORTS.min + 1;
const bindAny = (port: number) => port;

describe('SourcePorts', () => {
  it('gives every session a distinct port within 49152-65535 until the range is used up', () => {
    const ports = new SourcePorts();
    const taken = Array.from({ length: RANGE }, () => ports.take(bindAny)?.port);
    expect(new Set(taken).size).toBe(RANGE);
    expect(
      taken.every((p) => p !== undefined && p >= BFD_SOURCE_PORTS.min && p <= BFD_SOURCE_PORTS.max),
    ).toBe(true);
    expect(ports.take(bindAny)).toBeUndefined();
  });

  it('skips ports another socket holds, without keeping them', () => {
    const ports = new SourcePorts();
    const heldElsewhere = new Set([BFD_SOURCE_PORTS.min, BFD_SOURCE_PORTS.min + 1]);
    const first = ports.take((p) => (heldElsewhere.has(p) ? undefined : p));
    expect(first?.port).toBe(BFD_SOURCE_PORTS.min + 2);
    expect(first?.result).toBe(BFD_SOURCE_PORTS.min + 2);
    // Once the other socket lets go, the port is available again when the round comes back to it.
    heldElsewhere.clear();
    const rest = Array.from({ length: RANGE - 1 }, () => ports.take(bindAny)?.port);
    expect(rest).toContain(BFD_SOURCE_PORTS.min);
    expect(rest).not.toContain(first?.port);
  });

  it('reuses a released port only after every other free port had its turn', () => {
    const ports = new SourcePorts();
    const a = ports.take(bindAny)!.port;
    ports.release(a);
    const next = Array.from({ length: RANGE - 1 }, () => ports.take(bindAny)!.port);
    expect(next).not.toContain(a);
    expect(ports.take(bindAny)?.port).toBe(a);
  });

  it('gives up when no port can be bound, after trying each once', () => {
    const ports = new SourcePorts();
    let tries = 0;
    expect(ports.take(() => (tries++, undefined))).toBeUndefined();
    expect(tries).toBe(RANGE);
  });
});
