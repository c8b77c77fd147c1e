// Integration helpers for the Endpoints / EndpointSlice tests: a Service "web"
// selecting app=web, its pods, and status patches standing in for a kubelet.
import type { Engine } from '../../facade/engine';
import { call, createPod, nodeOf, runUntil } from '../../scheduler/testing/cluster';

export function makeReady(e: Engine, name: string, ip: string, ready = true): void {
  const r = call(e, 'PATCH', `/api/v1/namespaces/default/pods/${name}/status`, {
    status: { phase: 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
  }, { headers: { 'content-type': 'application/strategic-merge-patch+json' } });
  if (r.status !== 200) throw new Error(`patching ${name} status: ${r.status} ${r.text}`);
}

export function webService(e: Engine, spec: Record<string, unknown> = {}): void {
  const r = call(e, 'POST', '/api/v1/namespaces/default/services', {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'web', labels: { tier: 'front' } },
    spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }], ...spec },
  });
  if (r.status !== 201) throw new Error(`creating service: ${r.status} ${r.text}`);
}

/** Pods web-0..web-(n-1) with a container port named http (8080), bound by the scheduler. */
export function webPods(e: Engine, n: number): void {
  for (let i = 0; i < n; i++) {
    createPod(e, { name: `web-${i}`, labels: { app: 'web' }, spec: { containers: [{ name: 'app', image: 'nginx', ports: [{ name: 'http', containerPort: 8080 }] }] } });
  }
  runUntil(e, () => Array.from({ length: n }, (_, i) => nodeOf(e, `web-${i}`)).every(Boolean), 'pods bound');
}
