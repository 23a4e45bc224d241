import { describe, expect, it } from 'vitest';
import { builtByStack, claimFrame, packetWithHeadroom } from './frame-buffer.ts';

describe('packets with headroom', () => {
  it('are framed in place once: the frame is the packet behind a 14-byte header, padded to 60 bytes', () => {
    const packet = packetWithHeadroom(30);
    packet.fill(7);
    const frame = claimFrame(packet)!;
    expect(frame.length).toBe(60);
    expect([...frame.subarray(14, 44)]).toEqual(new Array(30).fill(7));
    expect([...frame.subarray(44)]).toEqual(new Array(16).fill(0));
    // A second send of the same packet must not rewrite a frame already on the wire.
    expect(claimFrame(packet)).toBeUndefined();
  });

  it('the stack vouches for the checksums of its own packets, not of the ones it forwards', () => {
    expect(builtByStack(claimFrame(packetWithHeadroom(30))!)).toBe(true);
    const forwarded = claimFrame(packetWithHeadroom(30, true))!;
    expect(forwarded.length).toBe(60);
    expect(builtByStack(forwarded)).toBe(false);
  });

  it('a long packet fills its frame exactly', () => {
    expect(claimFrame(packetWithHeadroom(1200))!.length).toBe(1214);
  });

  it('any other packet is left to be copied: fresh buffers and views into received frames alike', () => {
    expect(claimFrame(new Uint8Array(40))).toBeUndefined();
    // What a host reads out of a frame it received: an exactly sized frame, or one framed in place.
    expect(claimFrame(new Uint8Array(60).subarray(14, 60))).toBeUndefined();
    const framed = packetWithHeadroom(46);
    claimFrame(framed);
    expect(claimFrame(framed)).toBeUndefined();
  });
});
