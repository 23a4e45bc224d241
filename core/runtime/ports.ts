/**
 * The only ways core/ protocol code touches the network. Real implementations live beside this file
 * (raw AF_PACKET sockets, UDP sockets); the emulator and tests provide simulated ones, so the same
 * protocol code runs on a kernel, in virtual time, or in a unit test.
 */
import type { MacAddress } from '../net/mac.ts';

/** Raw Ethernet frames on one interface. */
export interface FramePort {
  /** Interface name, e.g. "eth0". */
  readonly name: string;
  /** The interface's own MAC address: the source of every frame we send. */
  readonly mac: MacAddress;
  /** Sends one whole Ethernet frame (destination MAC first). */
  send(frame: Uint8Array): void;
  /**
   * Receives frames seen on the interface, except the ones this host sent itself. Returns a function
   * that stops the delivery to this listener.
   */
  onFrame(listener: (frame: Uint8Array) => void): () => void;
  close(): void;
}

export interface DatagramAddress {
  address: string;
  port: number;
}

/** Unreliable, unordered datagrams (UDP), e.g. for membership heartbeats. */
export interface DatagramPort {
  readonly local: DatagramAddress;
  send(to: DatagramAddress, payload: Uint8Array): void;
  onMessage(listener: (payload: Uint8Array, from: DatagramAddress) => void): () => void;
  close(): void;
}
