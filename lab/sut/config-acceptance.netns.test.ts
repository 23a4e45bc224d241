/**
 * The config renderers against the daemons' own parsers, with every option a spec can carry: a typo in
 * a template fails here rather than as a daemon that starts and silently ignores a line.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Netns } from '../backends/netns/namespace.ts';
import { requireNetns } from '../backends/netns/test-support.ts';
import { renderBirdConfig } from './bird-config.ts';
import { runControl } from './command.ts';
import { renderFrrConfig } from './frr-config.ts';
import { renderGobgpConfig } from './gobgp-config.ts';
import type { BgpRouterSpec } from './router.ts';
import { resolveSpec } from './spec.ts';

const mode = await requireNetns(['vtysh', 'bird', 'gobgpd']);

const timers = { receiveMs: 100, transmitMs: 150, multiplier: 5 };

const everything: BgpRouterSpec = {
  name: 'all-options',
  ns: {} as Netns,
  asn: 64512,
  routerId: '198.18.0.1',
  ecmp: 8,
  gracefulRestart: { restartTimeSec: 60 },
  neighbors: [
    {
      address: '198.18.0.2',
      asn: 64513,
      password: 'k3y-1',
      passive: true,
      port: 1179,
      holdTimeSec: 9,
      keepaliveSec: 3,
    },
    {
      address: '198.18.9.2',
      asn: 64514,
      ebgpMultihop: 4,
      localAddress: '198.18.0.1',
      gracefulRestart: false,
      connectRetrySec: 5,
    },
    { address: '2001:db8::2', asn: 64512, gracefulRestart: true, families: ['ipv6', 'ipv4'] },
  ],
  originate: [
    { prefix: '198.18.100.0/24', communities: ['64512:1', '65535:65281'], largeCommunities: ['64512:1:2'] },
    { prefix: '2001:db8:100::/48', communities: ['64512:6'] },
    { prefix: '198.18.101.1/32' },
  ],
};

describe.skipIf(mode === 'skip')('rendered configs pass the daemons’ own checks', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lblab-sut-configs-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('FRR: vtysh --dryrun accepts the integrated config, BFD profiles with every option included', async () => {
    const spec = resolveSpec({
      ...everything,
      neighbors: [
        ...everything.neighbors,
        {
          address: '198.18.0.3',
          asn: 64515,
          bfd: {
            ...timers,
            passive: true,
            echo: { transmitMs: 50, receiveMs: 60 },
            checkControlPlaneFailure: true,
          },
        },
        {
          address: '198.18.9.3',
          asn: 64516,
          ebgpMultihop: 2,
          localAddress: '198.18.0.1',
          bfd: { ...timers, minimumTtl: 250 },
        },
      ],
    });
    const file = join(dir, 'frr.conf');
    await writeFile(file, renderFrrConfig(spec));
    await expect(runControl(['vtysh', '--dryrun', '-f', file])).resolves.toBeDefined();
    // The check is real: one bad line fails it.
    await writeFile(file, `${renderFrrConfig(spec)}router bgp 64512\n neighbor 198.18.0.2 bogus-option\n`);
    await expect(runControl(['vtysh', '--dryrun', '-f', file])).rejects.toThrow(/Unknown command/);
  });

  it('BIRD: bird -p parses the config, BFD options, authentication and multihop included', async () => {
    const sha1 = { type: 'meticulous-keyed-sha1', password: 'k3y-2', keyId: 9 } as const;
    const spec = resolveSpec({
      ...everything,
      neighbors: [
        ...everything.neighbors,
        { address: '198.18.0.3', asn: 64515, bfd: { ...timers, passive: true, authentication: sha1 } },
        // iBGP with BFD: rendered `direct` (single hop), so it shares the interface authentication.
        { address: '198.18.0.4', asn: 64512, bfd: { ...timers, authentication: sha1 } },
        {
          address: '198.18.9.3',
          asn: 64516,
          ebgpMultihop: 2,
          localAddress: '198.18.0.1',
          bfd: { ...timers, authentication: { type: 'keyed-md5', password: 'k3y-3' } },
        },
      ],
    });
    const file = join(dir, 'bird.conf');
    await writeFile(file, renderBirdConfig(spec, join(dir, 'bird.log')));
    await expect(runControl(['bird', '-p', '-c', file])).resolves.toBeDefined();
    await writeFile(
      file,
      `${renderBirdConfig(spec, join(dir, 'bird.log'))}protocol bgp broken { neighbor 198.18.0.9 as; }\n`,
    );
    await expect(runControl(['bird', '-p', '-c', file])).rejects.toThrow(/syntax error/);
  });

  it('GoBGP: gobgpd --dry-run reads the TOML with every neighbor option', async () => {
    const file = join(dir, 'gobgpd.toml');
    await writeFile(file, renderGobgpConfig(resolveSpec(everything)));
    const { stdout, stderr } = await runControl(['gobgpd', '--dry-run', '-f', file]);
    expect(`${stdout}${stderr}`).toContain('Finished reading the config file');
    await writeFile(
      file,
      `${renderGobgpConfig(resolveSpec(everything))}[[neighbors]]\n  [neighbors.config]\n    peer-as = "x"\n`,
    );
    await expect(runControl(['gobgpd', '--dry-run', '-f', file])).rejects.toThrow();
  });
});
