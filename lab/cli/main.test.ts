import { describe, expect, it } from 'vitest';
import packageJson from '../../package.json' with { type: 'json' };
import { buildProgram } from './main.ts';
import { runLblab } from './run-lblab.test-support.ts';

describe('lblab', () => {
  it('prints its version, loading no command for it', async () => {
    expect(await runLblab('--version')).toEqual({ code: 0, stdout: `${packageJson.version}\n`, stderr: '' });
    expect((await buildProgram('-V')).commands).toEqual([]);
  });

  it('prints help naming every command, and exits: the chart thread that `run` starts holds nothing open', async () => {
    const r = await runLblab('--help');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}run \[options\]/m);
    expect(r.stdout).toMatch(/^ {2}speaker \[options\]/m);
  });

  it('loads only the command named, and every command for help or a name it does not know', async () => {
    expect((await buildProgram('run')).commands.map((c) => c.name())).toEqual(['run']);
    const all = (await buildProgram('--help')).commands.map((c) => c.name());
    expect(all).toEqual(
      expect.arrayContaining(['run', 'report', 'speaker', 'controller', 'lab', 'manifests']),
    );
    expect((await buildProgram('rnu')).commands.map((c) => c.name())).toEqual(all);
    // Every command's modules (client-node among them) go through vitest's transform: 4.8-5.0 s here,
    // against vitest's default bound of 5 s.
  }, 30_000);
});
