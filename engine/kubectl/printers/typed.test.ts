import { describe, expect, it } from 'vitest';
import { asTypedStruct } from './typed';

describe('asTypedStruct (what -o json prints for a Go struct)', () => {
  it('orders fields as the Go type declares them, TypeMeta first, and writes zero-valued structs', () => {
    const t = asTypedStruct({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'i', creationTimestamp: null }, spec: { rules: [{ http: { paths: [{ backend: { service: { name: 's', port: { number: 80 } } }, pathType: 'Exact', path: '/' }] } }] } });
    expect(JSON.stringify(t)).toBe(
      '{"kind":"Ingress","apiVersion":"networking.k8s.io/v1","metadata":{"name":"i","creationTimestamp":null},"spec":{"rules":[{"http":{"paths":[{"path":"/","pathType":"Exact","backend":{"service":{"name":"s","port":{"number":80}}}}]}}]},"status":{"loadBalancer":{}}}',
    );
  });

  it('leaves a kind the table lacks as it is', () => {
    const o = { apiVersion: 'example.com/v1', kind: 'Widget', b: 1, a: 2 };
    expect(asTypedStruct(o)).toBe(o);
  });
});
