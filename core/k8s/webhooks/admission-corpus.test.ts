/**
 * The configuration corpus's bad files through the webhooks: each file's faulty document is submitted as
 * a CREATE while the file's other documents already exist in the cluster, and the webhook must refuse it
 * with what `lblab config validate` (loadConfig) reports for that document, object named instead of file.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadConfig, objectLabel } from '../../config/index.ts';
import { validatePaths } from './paths.ts';
import { admissionReview, post, responseOf, startHarness, type Harness } from './webhooks.test-support.ts';

const dir = join(import.meta.dirname, '..', '..', 'config', 'testdata', 'bad');
const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));

/** Refused before any webhook is called, or not a request at all: why each is not the webhook's. */
const notTheWebhooks: Record<string, string> = {
  'api-version-wrong.yaml':
    'the API server serves IPAddressPool only as metallb.io/v1beta1 and answers 404 for another version',
  'kind-missing.yaml': 'without a kind there is no resource to create: kubectl refuses the document',
  'kind-unknown.yaml': 'no CRD serves AddressPool (MetalLB removed it): the API server has no such resource',
  'not-a-mapping.yaml': 'a YAML list is not an object: kubectl refuses it before sending anything',
  'yaml-duplicate-key.yaml': 'a YAML syntax error: kubectl refuses it; a review carries parsed JSON',
  'missing-name.yaml': 'the API server refuses an object without a name (422) before admission',
  'duplicate-pool-name.yaml': 'a second object of one name is AlreadyExists (409) at the API server',
  'duplicate-l2-name.yaml': 'a second object of one name is AlreadyExists (409) at the API server',
  'bfd-duplicate-name.yaml': 'a second object of one name is AlreadyExists (409) at the API server',
  'secret-invalid-base64.yaml':
    'Secrets go to no MetalLB webhook, and the API server refuses data that is not base64',
  'peer-v1beta1-unknown-field.yaml':
    'v1beta1 has no dynamicASN: the API server prunes or refuses the field by the v1beta1 schema before conversion',
};

/**
 * Refused in a real cluster by the API server's own checks first (the CRD's structural schema prunes or
 * refuses unknown fields and wrong types; names must be DNS subdomains); the webhook still gives the
 * same verdict if one gets through, and is tested for it.
 */
const schemaFirst = new Set([
  'invalid-name.yaml',
  'unknown-field-metadata.yaml',
  'unknown-field-spec.yaml',
  'unknown-field-top-level.yaml',
  'wrong-type-bool.yaml',
  'wrong-type-integer.yaml',
  'wrong-type-list.yaml',
]);

const judged = files.filter((f) => !Object.hasOwn(notTheWebhooks, f));

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.webhooks.stop());

describe('bad configuration corpus through the validating webhooks', () => {
  it('accounts for every bad file', () => {
    expect(Object.keys(notTheWebhooks).filter((f) => !files.includes(f))).toEqual([]);
    expect([...schemaFirst].filter((f) => !judged.includes(f))).toEqual([]);
    expect(judged.length).toBeGreaterThan(70);
  });

  it.each(judged.map((f) => [f, schemaFirst.has(f) ? ' (the API server refuses it first)' : '']))(
    '%s is refused with the errors loadConfig reports for its document%s',
    async (file) => {
      const text = readFileSync(join(dir, file), 'utf8');
      const document = Number(/^# document: (\d+)$/m.exec(text)?.[1]);
      const objects = parseAllDocuments(text).map((d) => d.toJS() as Record<string, unknown>);
      const submitted = objects[document];
      if (submitted === undefined) throw new Error(`${file} has no document ${document}`);
      const label = objectLabel(submitted);

      const result = loadConfig([{ path: file, text }]);
      const expected = (result.ok ? [] : result.errors)
        .filter((e) => e.document === document)
        .map((e) => {
          // In a file, messages point at other resources by file and document; objects by kind and name.
          const message = e.message.replaceAll(/ in \S+\.yaml document \d+/g, '');
          return e.path === '' ? `${label}: ${message}` : `${label}: ${e.path}: ${message}`;
        });
      expect(
        expected.length,
        `${file}: loadConfig reports its error at document ${document}`,
      ).toBeGreaterThan(0);

      h.cluster.length = 0;
      h.cluster.push(...objects.filter((_, i) => i !== document));
      const kind = String(submitted['kind']);
      const path = Object.entries(validatePaths).find(([, k]) => k === kind)?.[0] ?? '';
      const reply = await post(h.webhooks.port, path, admissionReview('CREATE', { object: submitted }), {
        ca: h.webhooks.certificates().caBundle,
      });
      const response = responseOf(reply) as { allowed: boolean; status: { code: number; message: string } };
      expect(response.allowed).toBe(false);
      expect(response.status.code).toBe(403);
      expect(response.status.message.split('\n')).toEqual(expected);
    },
  );
});
