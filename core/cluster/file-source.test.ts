import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RealClock } from '../runtime/real-clock.ts';
import { ClusterFileError, FileClusterSource } from './file-source.ts';
import type { ClusterSnapshot } from './types.ts';

const node = (name: string) => `apiVersion: v1\nkind: Node\nmetadata: { name: ${name} }\n`;
const dirs: string[] = [];
const tempFile = (text: string) => {
  const dir = mkdtempSync(join(tmpdir(), 'lblab-cluster-'));
  dirs.push(dir);
  const path = join(dir, 'cluster.yaml');
  writeFileSync(path, text);
  return path;
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('FileClusterSource', () => {
  it('delivers a new snapshot when the file changes and reports a bad edit without losing the last good one', async () => {
    const path = tempFile(node('n1'));
    const source = await FileClusterSource.open(path, new RealClock(), { settleMs: 10 });
    try {
      expect(source.current().nodes.map((n) => n.metadata.name)).toEqual(['n1']);
      const changed = new Promise<ClusterSnapshot>((resolve) => source.onChange(resolve));
      writeFileSync(path, `${node('n1')}---\n${node('n2')}`);
      expect((await changed).nodes.map((n) => n.metadata.name)).toEqual(['n1', 'n2']);

      const failed = new Promise<Error>((resolve) => source.onError(resolve));
      writeFileSync(path, 'apiVersion: v1\nkind: Node\nmetadata: {}\n');
      expect((await failed).message).toContain('document 0: metadata.name: is required');
      expect(source.current().nodes).toHaveLength(2);
    } finally {
      source.close();
    }
  });

  it('writes statuses back atomically and reports when nothing changed', async () => {
    const path = tempFile(
      'apiVersion: v1\nkind: Service\nmetadata: { name: s, namespace: a }\nspec: { type: LoadBalancer }\n',
    );
    const source = await FileClusterSource.open(path, new RealClock(), { watch: false });
    const update = { namespace: 'a', name: 's', ingress: ['198.18.0.1'], pool: 'p' };
    expect(await source.writeStatuses([update])).toBe(true);
    expect(await source.writeStatuses([update])).toBe(false);
  });

  it('refuses a missing or invalid file with a precise error', async () => {
    await expect(FileClusterSource.open('/nonexistent/cluster.yaml', new RealClock())).rejects.toThrowError(
      'cannot read cluster file /nonexistent/cluster.yaml: ENOENT',
    );
    await expect(FileClusterSource.open(tempFile('kind: Pod\n'), new RealClock())).rejects.toThrowError(
      ClusterFileError,
    );
  });
});
