import { describe, expect, it } from 'vitest';
import { backendNamed, backendNames } from './index.ts';

describe('the backend registry', () => {
  it('loads each backend under its own name', async () => {
    for (const name of backendNames()) expect((await backendNamed(name))?.name).toBe(name);
  });

  it('knows nothing else, not even what every object has', async () => {
    expect(await backendNamed('toString')).toBeUndefined();
    expect(await backendNamed('vagrant')).toBeUndefined();
  });
});
