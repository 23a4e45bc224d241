/**
 * The backends `lblab run` can use, each loaded when asked for: an emulated run (`npm run lab`) need not
 * load the real-network backends' code, nor they each other's.
 */
import type { Backend } from '../runner/backend.ts';

const loaders: Readonly<Record<string, () => Promise<Backend>>> = {
  emulated: async () => (await import('./emulated/index.ts')).emulatedBackend,
  netns: async () => (await import('./netns/netns-backend.ts')).netnsBackend,
  docker: async () => (await import('./docker/docker-backend.ts')).dockerBackend,
  kind: async () => (await import('./kind/kind-backend.ts')).kindBackend,
};

export function backendNames(): string[] {
  return Object.keys(loaders);
}

export async function backendNamed(name: string): Promise<Backend | undefined> {
  return Object.hasOwn(loaders, name) ? loaders[name]!() : undefined;
}
