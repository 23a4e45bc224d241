/** The backends `lblab run` can use; the real-network ones join as their issues land. */
import type { Backend } from '../runner/backend.ts';
import { dockerBackend } from './docker/docker-backend.ts';
import { emulatedBackend } from './emulated/index.ts';
import { kindBackend } from './kind/kind-backend.ts';
import { netnsBackend } from './netns/netns-backend.ts';

const backends: readonly Backend[] = [emulatedBackend, netnsBackend, dockerBackend, kindBackend];

export function backendNames(): string[] {
  return backends.map((b) => b.name);
}

export function backendNamed(name: string): Backend | undefined {
  return backends.find((b) => b.name === name);
}
