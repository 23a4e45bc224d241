import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot as root, runLblab } from '../run-lblab.test-support.ts';
import { validateFiles } from './config.ts';

const good = 'core/config/testdata/good/layer2.yaml';
const bad = 'core/config/testdata/bad/range-start-after-end.yaml';
const badError =
  'core/config/testdata/bad/range-start-after-end.yaml: document 1 (IPAddressPool "first-pool"): spec.addresses[1]: range "198.18.0.20-198.18.0.10": start 198.18.0.20 is after end 198.18.0.10';

async function capture(paths: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await validateFiles(
    paths.map((p) => (isAbsolute(p) ? p : join(root, p))),
    'metallb-system',
    { stdout: (l) => stdout.push(l), stderr: (l) => stderr.push(l) },
  );
  return { code, stdout, stderr };
}

describe('lblab config validate (the command module)', () => {
  it('summarises a valid configuration and exits 0', async () => {
    const { code, stdout, stderr } = await capture([good, 'core/config/testdata/good/layer2-selectors.yaml']);
    expect(code).toBe(0);
    expect(stderr).toEqual([]);
    expect(stdout).toEqual([
      'configuration is valid (2 files)',
      'pools: 3',
      '  first-pool: 11 IPv4 addresses',
      '  ippool-ns-service-alloc-sample: 256 IPv4 addresses',
      '  manual: 16 IPv6 addresses (autoAssign off)',
      'L2 advertisements: 2',
      'BGP advertisements: 0',
      'BGP peers: 0',
      'BFD profiles: 0',
      'community aliases: 0',
      'warnings: 0',
    ]);
  });

  it('prints every error, one per line, and exits 1', async () => {
    const { code, stdout, stderr } = await capture([bad, 'core/config/testdata/bad/peer-duplicate.yaml']);
    expect(code).toBe(1);
    expect(stdout).toEqual([]);
    expect(stderr).toHaveLength(2);
    expect(stderr[0]).toBe(join(root, badError));
    expect(stderr[1]).toContain('peer-duplicate.yaml: document 1 (BGPPeer "peer2"): spec.peerAddress: ');
  });

  it('names the BFDProfile and the annotation when a BFD authentication key does not fit', async () => {
    const file = 'core/config/testdata/bad/bfd-auth-key-too-long.yaml';
    const { code, stdout, stderr } = await capture([file]);
    expect(code).toBe(1);
    expect(stdout).toEqual([]);
    expect(stderr).toEqual([
      `${join(root, file)}: document 1 (BFDProfile "authenticated"): metadata.annotations["bfd.lblab.io/auth-secret"]: the password in Secret "bfd-key" is 17 octets; a keyed-md5 key is 1 to 16 octets (RFC 5880 §4.2.3)`,
    ]);
  });

  it('prints warnings to stderr and still exits 0', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lblab-config-'));
    const file = join(dir, 'l2.yaml');
    await writeFile(
      file,
      'apiVersion: metallb.io/v1beta1\nkind: L2Advertisement\nmetadata: {name: l2}\nspec: {ipAddressPools: [gone]}\n',
    );
    try {
      const { code, stdout, stderr } = await capture([file]);
      expect(code).toBe(0);
      expect(stderr).toEqual([
        `warning: ${file}: document 0 (L2Advertisement "l2"): spec.ipAddressPools[0]: no IPAddressPool "gone" is defined; the name is ignored`,
      ]);
      expect(stdout.at(-1)).toBe('warnings: 1');
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  it('exits 2 when a file cannot be read', async () => {
    const { code, stdout, stderr } = await capture(['no/such/file.yaml']);
    expect(code).toBe(2);
    expect(stdout).toEqual([]);
    expect(stderr).toHaveLength(1);
    expect(stderr[0]).toMatch(/^lblab config validate: cannot read .*no\/such\/file\.yaml: ENOENT/);
  });
});

describe('lblab config validate (the installed command, as a process)', () => {
  const run = (...args: string[]) => runLblab('config', 'validate', ...args);

  it('exits 0 with a summary for a good file', async () => {
    const { code, stdout, stderr } = await run(good);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('configuration is valid (1 file)\npools: 1\n  first-pool: 11 IPv4 addresses\n');
  }, 30_000);

  it('exits 1 with the error on stderr for a bad file', async () => {
    const { code, stdout, stderr } = await run(bad);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(`${badError}\n`);
  }, 30_000);

  it('exits 2 for a missing file', async () => {
    const { code, stderr } = await run('missing.yaml');
    expect(code).toBe(2);
    expect(stderr).toContain('cannot read missing.yaml');
  }, 30_000);
});
