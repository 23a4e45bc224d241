import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { applyServiceStatuses } from './status-writer.ts';

const text = `# keep this comment
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: shop
spec: { type: LoadBalancer }
---
apiVersion: v1
kind: Service
metadata:
  name: db
  namespace: shop
  annotations: { metallb.io/ip-allocated-from-pool: old }
spec: { type: LoadBalancer }
status: { loadBalancer: { ingress: [{ ip: 198.18.0.9 }] } }
`;

describe('applyServiceStatuses', () => {
  it('writes ingress and pool annotation, clears released services, keeps comments and other fields', () => {
    const out = applyServiceStatuses(text, [
      { namespace: 'shop', name: 'web', ingress: ['198.18.100.1', '2001:db8:100::1'], pool: 'lab-pool' },
      { namespace: 'shop', name: 'db', ingress: [] },
    ]);
    expect(out).toContain('# keep this comment');
    const [web, db] = out.split(/^---$/m).map((d) => parse(d));
    expect(web.status.loadBalancer.ingress).toEqual([{ ip: '198.18.100.1' }, { ip: '2001:db8:100::1' }]);
    expect(web.metadata.annotations).toEqual({ 'metallb.io/ip-allocated-from-pool': 'lab-pool' });
    expect(web.spec).toEqual({ type: 'LoadBalancer' });
    expect(db.status.loadBalancer).toBeUndefined();
    expect(db.metadata.annotations['metallb.io/ip-allocated-from-pool']).toBeUndefined();
  });

  it('changes nothing when the file already says it', () => {
    const once = applyServiceStatuses(text, [
      { namespace: 'shop', name: 'web', ingress: ['198.18.100.1'], pool: 'p' },
    ]);
    expect(
      applyServiceStatuses(once, [{ namespace: 'shop', name: 'web', ingress: ['198.18.100.1'], pool: 'p' }]),
    ).toBe(once);
  });
});
