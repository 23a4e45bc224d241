import { describe, expect, it } from 'vitest';
import { ByteSlabs } from './byte-slab.ts';

describe('ByteSlabs', () => {
  it('hands out zeroed bytes that no other holder shares, from one slab while they fit', () => {
    const slabs = new ByteSlabs(1024);
    const a = slabs.take(100);
    a.fill(0xff);
    const b = slabs.take(100);
    expect(b.buffer).toBe(a.buffer);
    expect([...b].every((x) => x === 0)).toBe(true);
    expect(b.byteOffset).toBeGreaterThanOrEqual(a.byteOffset + a.length);
  });

  it('shows the window asked for inside the bytes it carved, and carves them whole', () => {
    const slabs = new ByteSlabs(1024);
    const packet = slabs.take(64, 14, 50);
    expect(packet.length).toBe(36);
    const frame = new Uint8Array(packet.buffer, packet.byteOffset - 14, 64);
    expect([...frame].every((x) => x === 0)).toBe(true);
    // The next carve starts after the whole 64 bytes, not after the window.
    expect(slabs.take(8).byteOffset).toBeGreaterThanOrEqual(frame.byteOffset + 64);
  });

  it('gives large buffers, and buffers that would not fit, a slab or buffer of their own', () => {
    const slabs = new ByteSlabs(1024);
    const big = slabs.take(600, 10, 20);
    expect(big.buffer.byteLength).toBe(600);
    expect([big.byteOffset, big.length]).toEqual([10, 10]);
    const first = slabs.take(200);
    for (let i = 0; i < 4; i++) slabs.take(200);
    expect(slabs.take(200).buffer).not.toBe(first.buffer);
  });
});
