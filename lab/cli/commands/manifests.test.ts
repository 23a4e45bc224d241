import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { runLblab } from '../run-lblab.test-support.ts';
import { defaultImage, printManifests } from './manifests.ts';

function capture(options: Partial<Parameters<typeof printManifests>[0]> = {}) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = printManifests(
    { namespace: 'metallb-system', image: defaultImage, crds: true, webhooks: true, ...options },
    { stdout: (l) => stdout.push(l), stderr: (l) => stderr.push(l) },
  );
  return { code, stdout: stdout.join('\n'), stderr };
}

describe('lblab manifests (the command module)', () => {
  it('prints the bundle as YAML documents, after a header that says how it was made and how to apply it', () => {
    const { code, stdout, stderr } = capture();
    expect(code).toBe(0);
    expect(stderr).toEqual([]);
    expect(stdout.split('\n').slice(0, 2)).toEqual([
      `# lblab 0.1.0 install bundle (lblab manifests --namespace metallb-system --image ${defaultImage})`,
      '# Install: kubectl apply -f <this file>',
    ]);
    const docs = parseAllDocuments(stdout).map((d) => d.toJS() as { kind: string });
    expect(docs).toHaveLength(24);
    expect(docs[0]?.kind).toBe('Namespace');
  });

  it('takes the image from the package version by default', () => {
    expect(defaultImage).toBe('lblab:0.1.0');
  });

  it('refuses a bad namespace or image with exit 2 and says why', () => {
    expect(capture({ namespace: 'Metallb_System' })).toEqual({
      code: 2,
      stdout: '',
      stderr: [
        'lblab manifests: namespace "Metallb_System" is not a namespace name: use at most 63 lower-case letters, digits and \'-\', starting and ending with a letter or digit',
      ],
    });
    const { code, stderr } = capture({ image: 'LBLAB latest' });
    expect(code).toBe(2);
    expect(stderr[0]).toMatch(/^lblab manifests: image "LBLAB latest" is not an image reference/);
  });
});

describe('lblab manifests (the installed command)', () => {
  it(
    'is registered, its --help lists the flags, and --no-crds --no-webhooks leave those out',
    { timeout: 60_000 },
    async () => {
      const help = await runLblab('manifests', '--help');
      expect(help.code).toBe(0);
      for (const flag of ['--namespace <name>', '--image <reference>', '--no-crds', '--no-webhooks'])
        expect(help.stdout).toContain(flag);
      const small = await runLblab('manifests', '--namespace', 'lb', '--no-crds', '--no-webhooks');
      expect(small.code).toBe(0);
      const kinds = parseAllDocuments(small.stdout).map((d) => (d.toJS() as { kind: string }).kind);
      expect(kinds).not.toContain('CustomResourceDefinition');
      expect(kinds).not.toContain('ValidatingWebhookConfiguration');
      expect(kinds).toContain('DaemonSet');
      const bad = await runLblab('manifests', '--namespace', 'Bad');
      expect([bad.code, bad.stdout]).toEqual([2, '']);
      expect(bad.stderr).toContain('namespace "Bad" is not a namespace name');
    },
  );
});
