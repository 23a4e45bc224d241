import type { Backend, Capability } from '../../runner/backend.ts';
import { EmulatedLab } from './emulated-lab.ts';

/** The default backend: all of core/ on a simulated network in virtual time; needs no privileges. */
export const emulatedBackend: Backend = {
  name: 'emulated',
  capabilities: new Map<Capability, true | string>([
    ['l2', true],
    ['ipv6', true],
    ['kill', true],
    ['hang', true],
    ['stall', true],
    ['restart', true],
    ['link', true],
    ['partition', true],
    ['impair', true],
    ['bgp', true],
    ['bfd', true],
  ]),
  up: (topology, options) => EmulatedLab.create(topology, options),
};
