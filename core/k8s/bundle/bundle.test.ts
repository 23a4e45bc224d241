import type {
  V1DaemonSet,
  V1Deployment,
  V1Service,
  V1ValidatingWebhookConfiguration,
} from '@kubernetes/client-node';
import { ValidatingWebhookConfiguration } from 'kubernetes-models/admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration';
import { CustomResourceDefinition } from 'kubernetes-models/apiextensions.k8s.io/v1/CustomResourceDefinition';
import { DaemonSet } from 'kubernetes-models/apps/v1/DaemonSet';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { ClusterRole } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRole';
import { ClusterRoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding';
import { Role } from 'kubernetes-models/rbac.authorization.k8s.io/v1/Role';
import { RoleBinding } from 'kubernetes-models/rbac.authorization.k8s.io/v1/RoleBinding';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { bundleYaml, installBundle, type ManifestObject } from './bundle.ts';
import { InvalidImageReferenceError, InvalidNamespaceError, type BundleOptions } from './options.ts';

const defaults: BundleOptions = {
  namespace: 'metallb-system',
  image: 'lblab:0.1.0',
  crds: true,
  webhooks: true,
};
const bundle = (options: Partial<BundleOptions> = {}) => installBundle({ ...defaults, ...options });
const find = <T>(objects: ManifestObject[], kind: string, name: string) => {
  const found = objects.find((o) => o.kind === kind && o.metadata?.name === name);
  if (found === undefined) throw new Error(`no ${kind} ${name}`);
  return found as T;
};

/** kubernetes-models' class for each kind the bundle holds: its validate() is Kubernetes' own schema. */
const models: Record<string, new (data: never) => { validate(): void }> = {
  Namespace,
  CustomResourceDefinition,
  ServiceAccount,
  ClusterRole,
  ClusterRoleBinding,
  Role,
  RoleBinding,
  Service,
  Deployment,
  DaemonSet,
  ValidatingWebhookConfiguration,
};

describe('the install bundle', () => {
  it('holds what MetalLB installs, under the names MetalLB users know, in an order kubectl can apply', () => {
    expect(bundle().map((o) => `${o.kind} ${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`)).toEqual(
      [
        'Namespace /metallb-system',
        ...[
          'ipaddresspools',
          'l2advertisements',
          'bgpadvertisements',
          'bgppeers',
          'bfdprofiles',
          'communities',
          'servicel2statuses',
          'servicebgpstatuses',
          'configurationstates',
        ].map((plural) => `CustomResourceDefinition /${plural}.metallb.io`),
        'ServiceAccount metallb-system/controller',
        'ServiceAccount metallb-system/speaker',
        'ClusterRole /metallb-system:controller',
        'ClusterRoleBinding /metallb-system:controller',
        'Role metallb-system/controller',
        'RoleBinding metallb-system/controller',
        'ClusterRole /metallb-system:speaker',
        'ClusterRoleBinding /metallb-system:speaker',
        'Role metallb-system/speaker',
        'RoleBinding metallb-system/speaker',
        'Service metallb-system/metallb-webhook-service',
        'Deployment metallb-system/controller',
        'DaemonSet metallb-system/speaker',
        'ValidatingWebhookConfiguration /metallb-webhook-configuration',
      ],
    );
  });

  it.each(
    [
      defaults,
      { ...defaults, webhooks: false },
      { ...defaults, namespace: 'lb', image: 'r.example:5000/x/lblab@sha256:' + 'a'.repeat(64) },
    ].flatMap((options) =>
      installBundle(options).map((o) => [`${o.kind ?? ''} ${o.metadata?.name ?? ''}`, o] as const),
    ),
  )('%s passes Kubernetes’ own schema for its kind (kubernetes-models)', (_name, object) => {
    const Model = models[object.kind ?? ''];
    expect(Model, `a model for ${object.kind}`).toBeDefined();
    if (Model !== undefined) expect(() => new Model(object as never).validate()).not.toThrow();
  });

  it('labels the namespace for the privileged pods the speaker needs, as MetalLB does', () => {
    expect(find(bundle(), 'Namespace', 'metallb-system')).toMatchObject({
      metadata: { labels: { 'pod-security.kubernetes.io/enforce': 'privileged' } },
    });
  });

  it('runs the controller unprivileged: 65534, read-only root, no capabilities, probes, requests', () => {
    const deployment = find<V1Deployment>(bundle(), 'Deployment', 'controller');
    const pod = deployment.spec?.template.spec;
    const main = pod?.containers[0];
    expect(deployment.spec?.replicas).toBe(1);
    expect(pod?.serviceAccountName).toBe('controller');
    expect(pod?.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 65534 });
    expect(main?.image).toBe('lblab:0.1.0');
    expect(main?.args).toEqual(['controller', '--namespace', 'metallb-system']);
    expect(main?.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(main?.ports?.map((p) => [p.name, p.containerPort])).toEqual([
      ['monitoring', 7472],
      ['webhook-server', 9443],
    ]);
    expect([main?.livenessProbe?.httpGet?.path, main?.readinessProbe?.httpGet?.path]).toEqual([
      '/healthz',
      '/readyz',
    ]);
    expect(main?.resources?.requests).toEqual({ cpu: '100m', memory: '128Mi' });
  });

  it('runs the speaker on each node’s network with NET_RAW and NET_BIND_SERVICE only', () => {
    const daemonSet = find<V1DaemonSet>(bundle(), 'DaemonSet', 'speaker');
    const pod = daemonSet.spec?.template.spec;
    const main = pod?.containers[0];
    expect(pod?.hostNetwork).toBe(true);
    expect(pod?.serviceAccountName).toBe('speaker');
    expect(main?.args).toEqual(['speaker', '--namespace', 'metallb-system']);
    expect(main?.securityContext?.capabilities).toEqual({
      drop: ['ALL'],
      add: ['NET_RAW', 'NET_BIND_SERVICE'],
    });
    expect(main?.securityContext?.allowPrivilegeEscalation).toBe(false);
    expect(main?.env?.map((e) => [e.name, e.valueFrom?.fieldRef?.fieldPath])).toEqual([
      ['METALLB_NODE_NAME', 'spec.nodeName'],
      ['METALLB_POD_NAME', 'metadata.name'],
      ['METALLB_ML_BIND_ADDR', 'status.podIP'],
    ]);
    expect(main?.ports?.map((p) => `${p.containerPort}/${p.protocol}`)).toEqual([
      '7472/TCP',
      '7946/TCP',
      '7946/UDP',
    ]);
    expect(pod?.tolerations).toContainEqual({
      key: 'node-role.kubernetes.io/control-plane',
      operator: 'Exists',
      effect: 'NoSchedule',
    });
    expect([main?.livenessProbe?.httpGet?.path, main?.readinessProbe?.httpGet?.path]).toEqual([
      '/healthz',
      '/readyz',
    ]);
    expect(main?.resources?.requests).toBeDefined();
  });

  it('routes the webhook Service’s 443 to the controller’s 9443 and selects the controller’s pods', () => {
    const objects = bundle();
    const service = find<V1Service>(objects, 'Service', 'metallb-webhook-service');
    const pod = find<V1Deployment>(objects, 'Deployment', 'controller').spec?.template;
    expect(service.spec?.ports).toEqual([
      { name: 'webhook', port: 443, targetPort: 'webhook-server', protocol: 'TCP' },
    ]);
    const target = pod?.spec?.containers[0]?.ports?.find(
      (p) => p.name === service.spec?.ports?.[0]?.targetPort,
    );
    expect(target?.containerPort).toBe(9443);
    expect(pod?.metadata?.labels).toMatchObject(service.spec?.selector ?? { none: 'selected' });
  });

  it("validates MetalLB's resources at MetalLB's paths, failing closed, BFDProfiles also on DELETE", () => {
    const vwc = find<V1ValidatingWebhookConfiguration>(
      bundle(),
      'ValidatingWebhookConfiguration',
      'metallb-webhook-configuration',
    );
    expect(
      vwc.webhooks?.map((w) => [
        w.name,
        w.clientConfig.service?.path,
        w.rules?.[0]?.resources?.[0],
        w.rules?.[0]?.operations?.join(','),
      ]),
    ).toEqual([
      [
        'bgppeervalidationwebhook.metallb.io',
        '/validate-metallb-io-v1beta2-bgppeer',
        'bgppeers',
        'CREATE,UPDATE',
      ],
      [
        'bfdprofilevalidationwebhook.metallb.io',
        '/validate-metallb-io-v1beta1-bfdprofile',
        'bfdprofiles',
        'CREATE,UPDATE,DELETE',
      ],
      [
        'bgpadvertisementvalidationwebhook.metallb.io',
        '/validate-metallb-io-v1beta1-bgpadvertisement',
        'bgpadvertisements',
        'CREATE,UPDATE',
      ],
      [
        'communityvalidationwebhook.metallb.io',
        '/validate-metallb-io-v1beta1-community',
        'communities',
        'CREATE,UPDATE',
      ],
      [
        'ipaddresspoolvalidationwebhook.metallb.io',
        '/validate-metallb-io-v1beta1-ipaddresspool',
        'ipaddresspools',
        'CREATE,UPDATE',
      ],
      [
        'l2advertisementvalidationwebhook.metallb.io',
        '/validate-metallb-io-v1beta1-l2advertisement',
        'l2advertisements',
        'CREATE,UPDATE',
      ],
    ]);
    for (const w of vwc.webhooks ?? []) {
      expect(w.failurePolicy).toBe('Fail');
      expect(w.clientConfig.service).toMatchObject({
        name: 'metallb-webhook-service',
        namespace: 'metallb-system',
        port: 443,
      });
      expect(w.clientConfig.caBundle).toBeUndefined();
    }
  });

  it('puts everything in the namespace asked for, and runs the image asked for', () => {
    const objects = bundle({ namespace: 'lb-system', image: 'registry.example.com:5000/net/lblab:1.2.3' });
    const text = JSON.stringify(objects);
    expect(text).not.toContain('metallb-system');
    for (const o of objects.filter(
      (x) =>
        ![
          'Namespace',
          'CustomResourceDefinition',
          'ClusterRole',
          'ClusterRoleBinding',
          'ValidatingWebhookConfiguration',
        ].includes(x.kind ?? ''),
    ))
      expect(o.metadata?.namespace, `${o.kind} ${o.metadata?.name}`).toBe('lb-system');
    expect(find(objects, 'ClusterRole', 'lb-system:speaker')).toBeDefined();
    const images = [
      find<V1Deployment>(objects, 'Deployment', 'controller'),
      find<V1DaemonSet>(objects, 'DaemonSet', 'speaker'),
    ].map((w) => w.spec?.template.spec?.containers[0]?.image);
    expect(images).toEqual([
      'registry.example.com:5000/net/lblab:1.2.3',
      'registry.example.com:5000/net/lblab:1.2.3',
    ]);
  });

  it('--no-crds leaves the CRDs out; --no-webhooks leaves the webhooks out and tells the controller so', () => {
    expect(bundle({ crds: false }).some((o) => o.kind === 'CustomResourceDefinition')).toBe(false);
    const objects = bundle({ webhooks: false });
    expect(objects.some((o) => o.kind === 'ValidatingWebhookConfiguration' || o.kind === 'Service')).toBe(
      false,
    );
    const args = find<V1Deployment>(objects, 'Deployment', 'controller').spec?.template.spec?.containers[0]
      ?.args;
    expect(args).toEqual(['controller', '--namespace', 'metallb-system', '--webhook-mode', 'disabled']);
    const ports = find<V1Deployment>(objects, 'Deployment', 'controller').spec?.template.spec?.containers[0]
      ?.ports;
    expect(ports?.map((p) => p.name)).toEqual(['monitoring']);
    expect(JSON.stringify(objects)).not.toContain('metallb-webhook-service');
  });

  it('refuses a namespace or an image reference Kubernetes would refuse', () => {
    for (const namespace of ['MetalLB', 'metallb_system', '-lb', 'lb-', '', 'a'.repeat(64), 'lb.system'])
      expect(() => bundle({ namespace }), namespace).toThrow(InvalidNamespaceError);
    for (const image of [
      'Lblab:1',
      'lblab:',
      'lblab:1 2',
      'lblab@sha256:123',
      '/lblab',
      'lblab:-1',
      'a'.repeat(256),
    ])
      expect(() => bundle({ image }), image).toThrow(InvalidImageReferenceError);
    for (const image of [
      'lblab',
      'lblab:0.1.0-3f2a9c1b4d5e',
      'ghcr.io/org/lblab:v1',
      'localhost:5000/lblab',
      `lblab@sha256:${'f'.repeat(64)}`,
    ])
      expect(() => bundle({ image }), image).not.toThrow();
    expect(() => bundle({ namespace: 'Bad' })).toThrow(
      'namespace "Bad" is not a namespace name: use at most 63 lower-case letters, digits and \'-\', starting and ending with a letter or digit',
    );
  });

  it('prints as multi-document YAML that reads back to the same objects, without YAML anchors', () => {
    const objects = bundle();
    const text = bundleYaml(objects, 'lblab install bundle\nkubectl apply -f -');
    expect(text.startsWith('# lblab install bundle\n# kubectl apply -f -\n---\n')).toBe(true);
    const docs = parseAllDocuments(text);
    expect(docs.every((d) => d.errors.length === 0)).toBe(true);
    expect(docs.map((d) => d.toJS() as unknown)).toEqual(JSON.parse(JSON.stringify(objects)));
    expect(text).not.toMatch(/[&*]a\d+\b/);
    // Characters Go's YAML 1.1 reader (kubectl) takes for line breaks, or refuses inside a document.
    expect(text).not.toMatch(/[\u0085\u2028\u2029\ufeff]/);
  });
});
