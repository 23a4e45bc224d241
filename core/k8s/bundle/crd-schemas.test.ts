/**
 * MetalLB resources against the generated CRD schemas, as the API server would judge them on
 * `kubectl apply`: MetalLB's documented examples, this repository's configurations and the config
 * corpus's good files are accepted; each bad file of the corpus is refused by the schema, or said to be
 * the webhook's or the API server's job and why — every bad file is accounted for.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import {
  configurationStateLabels,
  configurationStateNames,
  conditionTypes,
  serviceBGPStatusGenerateName,
  serviceL2StatusGenerateName,
  statusLabels,
} from '../metallb/status.ts';
import { CrdValidator } from './crd-validator.test-support.ts';
import { customResourceDefinitions } from './crds.ts';

const repo = join(import.meta.dirname, '..', '..', '..');
const validator = new CrdValidator(
  customResourceDefinitions({ namespace: 'metallb-system', webhooks: true }),
);

function documents(path: string): Record<string, unknown>[] {
  return parseAllDocuments(readFileSync(path, 'utf8'))
    .map((d) => d.toJS() as Record<string, unknown> | null)
    .filter((d): d is Record<string, unknown> => d !== null);
}

const isMetallb = (doc: Record<string, unknown>) => String(doc['apiVersion']).startsWith('metallb.io/');

const files = (dir: string, pattern: RegExp) =>
  readdirSync(join(repo, dir))
    .filter((f) => pattern.test(f))
    .map((f) => join(dir, f));

const good = [
  ...files('core/k8s/bundle/testdata/metallb-docs', /\.yaml$/),
  ...files('topologies', /\.metallb\.yaml$/),
  'topologies/quickstart/metallb.yaml',
  ...files('core/config/testdata/good', /\.yaml$/),
];

describe('the CRD schemas accept valid MetalLB resources', () => {
  it.each(good)('%s', (file) => {
    const docs = documents(join(repo, file)).filter(isMetallb);
    expect(docs.length).toBeGreaterThan(0);
    for (const doc of docs) {
      const verdict = validator.validate(doc);
      expect(verdict.served, `${String(doc['kind'])} is served`).toBe(true);
      expect(verdict.errors, `${String(doc['kind'])} ${JSON.stringify(doc['metadata'])}`).toEqual([]);
    }
  });

  it('and the status objects lblab’s agents write', () => {
    const status = (kind: string, name: Record<string, string>, body: Record<string, unknown>) => ({
      apiVersion: 'metallb.io/v1beta1',
      kind,
      metadata: { ...name, namespace: 'metallb-system' },
      ...body,
    });
    const labels = {
      [statusLabels.node]: 'node-1',
      [statusLabels.serviceName]: 'web',
      [statusLabels.serviceNamespace]: 'default',
    };
    const service = { node: 'node-1', serviceName: 'web', serviceNamespace: 'default' };
    const written = [
      status(
        'ServiceL2Status',
        { generateName: serviceL2StatusGenerateName },
        { metadata: { labels }, spec: {}, status: { ...service, interfaces: [{ name: 'eth0' }] } },
      ),
      status(
        'ServiceBGPStatus',
        { generateName: serviceBGPStatusGenerateName },
        { status: { ...service, peers: ['r1', 'r2'] } },
      ),
      status(
        'ConfigurationState',
        { name: configurationStateNames.speaker('node-1') },
        {
          metadata: {
            labels: {
              [configurationStateLabels.componentType]: 'speaker',
              [configurationStateLabels.nodeName]: 'node-1',
            },
          },
          status: {
            result: 'Invalid',
            errorSummary: 'IPAddressPool "p": spec.addresses[0]: overlaps',
            conditions: [
              {
                type: conditionTypes.speaker,
                status: 'False',
                reason: 'ConfigError',
                message: 'overlaps',
                lastTransitionTime: '2026-11-02T10:00:00Z',
              },
            ],
          },
        },
      ),
      status(
        'IPAddressPool',
        { name: 'v6' },
        {
          spec: { addresses: ['2001:db8::/64'] },
          // MaxInt64, as MetalLB writes a count that does not fit, read as JSON is read.
          status: JSON.parse(
            '{"assignedIPv4": 0, "assignedIPv6": 3, "availableIPv4": 0, "availableIPv6": 9223372036854775807}',
          ) as unknown,
        },
      ),
    ];
    for (const doc of written) expect(validator.validate(doc).errors, String(doc.kind)).toEqual([]);
    expect(
      validator.validate(
        status('ConfigurationState', { name: 'controller' }, { status: { result: 'Maybe' } }),
      ).errors,
    ).toEqual(['/status/result: must be equal to one of the allowed values']);
  });
});

/** Who refuses a bad file when it is applied to a cluster running lblab, and, unless the schema does, why. */
type Refuser = { by: 'schema' } | { by: 'webhook' | 'api-server'; why: string };
const schema: Refuser = { by: 'schema' };
const webhook = (why: string): Refuser => ({ by: 'webhook', why });
const apiServer = (why: string): Refuser => ({ by: 'api-server', why });

const crossObject = webhook('needs the other resources of the namespace');
const reference = webhook('a reference to another object, which a schema cannot follow');
const secret = webhook('about the content of a Secret the peer or profile names');
const alias = webhook('an entry may be the name of a Community alias, which only the webhook can look up');
const durations = webhook(
  'arithmetic on Go durations across fields or units; MetalLB itself uses CEL rules, which lblab leaves to the webhook',
);
const uniqueName = apiServer('names are unique in a namespace: the second object is an update of the first');

const badFiles: Record<string, Refuser> = {
  'aggregation-length-too-long': schema,
  'aggregation-length-v6-too-long': schema,
  'aggregation-range-too-wide': crossObject,
  'aggregation-shorter-than-cidr': crossObject,
  'aggregation-v6-shorter-than-cidr': crossObject,
  'api-version-wrong': apiServer('no such version is served: kubectl finds no resource for it'),
  'bfd-auth-key-too-long': secret,
  'bfd-auth-unknown-type': webhook(
    'lblab reads BFD authentication from annotations; a CRD schema cannot constrain metadata',
  ),
  'bfd-duplicate-name': uniqueName,
  'bfd-echo-interval-too-low': schema,
  'bfd-echo-ipv6': crossObject,
  'bfd-minimum-ttl-too-high': schema,
  'bfd-multiplier-too-low': schema,
  'bfd-receive-interval-too-high': schema,
  'bfd-receive-interval-too-low': schema,
  'bgp-advertisement-duplicate-peers': schema,
  'bgp-advertisement-duplicate-pools': schema,
  'cidr-invalid-address': schema,
  'cidr-prefix-too-long': schema,
  'cidr-without-length': schema,
  'community-alias-duplicate-across': crossObject,
  'community-alias-duplicate-within': schema,
  'community-asn-too-large': alias,
  'community-duplicate-in-advertisement': schema,
  'community-large-bad-marker': alias,
  'community-large-part-too-large': alias,
  'community-resource-asn-too-large': schema,
  'community-resource-bad-value': schema,
  'community-unknown-alias': alias,
  'community-value-too-large': alias,
  'duplicate-l2-name': uniqueName,
  'duplicate-pool-name': uniqueName,
  'invalid-name': apiServer('object names are DNS subdomains, checked before any schema'),
  'kind-missing': apiServer('a document without a kind is refused by kubectl'),
  'kind-unknown': apiServer('no such kind is served'),
  'l2-advertisement-duplicate-pool-selectors': schema,
  'l2-advertisement-duplicate-pools': schema,
  'local-pref-conflict': crossObject,
  'local-pref-out-of-range': schema,
  'missing-name': apiServer('an object needs a name (or generateName)'),
  'not-a-mapping': apiServer('not an object'),
  'overlap-across-pools': crossObject,
  'overlap-within-pool': webhook('comparing address ranges is arithmetic a schema cannot do'),
  'peer-asn-and-dynamic-asn': schema,
  'peer-asn-too-large': schema,
  'peer-bad-dynamic-asn': schema,
  'peer-connect-time-fraction': durations,
  'peer-connect-time-too-long': durations,
  'peer-duplicate': crossObject,
  'peer-duration-number': schema,
  'peer-duration-without-unit': schema,
  'peer-ebgp-multihop-ibgp': webhook('compares myASN with peerASN; a schema cannot compare two fields'),
  'peer-hold-time-too-short': durations,
  'peer-implied-hold-too-short': durations,
  'peer-interface-unsupported': schema,
  'peer-invalid-address': schema,
  'peer-invalid-router-id': schema,
  'peer-invalid-source-address': schema,
  'peer-keepalive-longer-than-hold': durations,
  'peer-missing-address': schema,
  'peer-missing-my-asn': schema,
  'peer-missing-peer-asn': schema,
  'peer-my-asn-zero': schema,
  'peer-password-and-secret': schema,
  'peer-password-newline': schema,
  'peer-port-out-of-range': schema,
  'peer-router-id-ipv6': schema,
  'peer-secret-missing': reference,
  'peer-secret-password-newline': secret,
  'peer-secret-without-password': secret,
  'peer-secret-wrong-type': secret,
  'peer-source-family-mismatch': schema,
  'peer-unknown-bfd-profile': reference,
  'peer-v1beta1-unknown-field': schema,
  'peer-vrf-carriage-return': schema,
  'pool-duplicate-namespace-selectors': schema,
  'pool-duplicate-namespace': schema,
  'pool-duplicate-selector-values': schema,
  'pool-no-addresses': schema,
  'pool-no-spec': schema,
  'range-mixed-families': schema,
  'range-start-after-end': webhook('comparing two addresses is arithmetic a schema cannot do'),
  'secret-invalid-base64': apiServer('a Secret, decoded by the API server itself'),
  'selector-bad-label-key': webhook('a structural schema cannot constrain the keys of a map (matchLabels)'),
  'selector-duplicate-expression': webhook(
    'the expressions differ only in the order of their values: the API server’s set compares items whole',
  ),
  'selector-in-without-values': schema,
  'selector-invalid-operator': schema,
  'selector-missing-key': schema,
  'unknown-field-metadata': apiServer(
    'metadata is decoded by the API server (strict field validation), not by the CRD schema',
  ),
  'unknown-field-spec': schema,
  'unknown-field-top-level': schema,
  'wrong-namespace': webhook(
    'lblab reads its own namespace only; the webhook refuses MetalLB resources elsewhere',
  ),
  'wrong-type-bool': schema,
  'wrong-type-integer': schema,
  'wrong-type-list': schema,
  'yaml-duplicate-key': apiServer('kubectl and the API server refuse a mapping with a key twice'),
};

const badDir = join(repo, 'core/config/testdata/bad');
const header = (text: string) => /^# expect: (.*?): .*\n# document: (\d+)\n/.exec(text);
/** `spec.a[1]["b c"]` → `/spec/a/1/b c`. */
const pointer = (path: string) =>
  path === ''
    ? ''
    : '/' +
      path
        .replace(/\["([^"]*)"\]/g, '.$1')
        .replace(/\[(\d+)\]/g, '.$1')
        .split('.')
        .join('/');

describe('bad configurations (core/config/testdata/bad)', () => {
  it('are every one accounted for', () => {
    const names = readdirSync(badDir)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => f.replace(/\.yaml$/, ''));
    expect(Object.keys(badFiles).sort()).toEqual(names.sort());
  });

  const cases = Object.entries(badFiles).map(([name, refuser]) => [name, refuser.by, refuser] as const);

  it.each(cases.filter(([, by]) => by === 'schema'))(
    '%s is refused by the schema, at the field lblab names',
    (name) => {
      const text = readFileSync(join(badDir, `${name}.yaml`), 'utf8');
      const [, path = '', document = ''] = header(text) ?? [];
      const docs = parseAllDocuments(text).map((d) => d.toJS() as Record<string, unknown>);
      docs.forEach((doc, i) => {
        const verdict = validator.validate(doc);
        expect(verdict.served).toBe(true);
        if (i !== Number(document)) return expect(verdict.errors, `document ${i}`).toEqual([]);
        expect(verdict.errors).not.toEqual([]);
        // The schema reports the field itself, or the list or object whose rule it breaks.
        const expected = pointer(path);
        const at = verdict.paths.filter((p) => p !== '' && (expected === p || expected.startsWith(`${p}/`)));
        expect(at, `errors: ${verdict.errors.join('; ')}; lblab: ${path}`).not.toEqual([]);
      });
    },
  );

  it.each(cases.filter(([, by]) => by === 'webhook'))(
    '%s passes the schema: it is the webhook’s to refuse (%s)',
    (name, _by, refuser) => {
      expect(refuser.by === 'webhook' && refuser.why.length).toBeGreaterThan(10);
      const docs = documents(join(badDir, `${name}.yaml`)).filter(isMetallb);
      expect(docs.length).toBeGreaterThan(0);
      for (const doc of docs) expect(validator.validate(doc).errors).toEqual([]);
    },
  );

  it.each(cases.filter(([, by]) => by === 'api-server'))(
    '%s is refused by Kubernetes before any CRD schema (%s)',
    (name, _by, refuser) => {
      expect(refuser.by === 'api-server' && refuser.why.length).toBeGreaterThan(5);
      // Such a file either is not a served metallb.io object or breaks what no CRD schema describes
      // (metadata, names, YAML); the schema itself has no say, so it must not be what refuses it.
      const parsed = parseAllDocuments(readFileSync(join(badDir, `${name}.yaml`), 'utf8'));
      if (parsed.some((d) => d.errors.length > 0)) return;
      for (const doc of parsed.map((d) => d.toJS() as unknown)) {
        const verdict = validator.validate(doc);
        if (verdict.served) expect(verdict.errors).toEqual([]);
      }
    },
  );
});
