// Test helpers: an in-memory ClusterReader and AdmissionAttributes builders.
// Used by the *.test.ts files here; not part of the admission API.
import type { KObject } from '../../apimachinery/types';
import { parseApiVersion } from '../../apimachinery/types';
import { resourceFor, resourceForKind } from '../registry/resources';
import type { AdmissionAttributes, AdmissionOperation, ClusterReader, UserInfo } from '../types';
import { registerClass } from '../../sim/serial';
import { clone } from './json';
import { controllerEvaluators, resourceListJson, specHard, usageStats } from '../quota/evaluators';

export class FakeCluster implements ClusterReader {
  readonly objects = new Map<string, KObject>();

  constructor(objs: KObject[] = []) {
    for (const o of objs) this.add(o);
  }

  private key(group: string, resource: string, namespace: string | undefined, name: string): string {
    return `${group}/${resource}/${namespace ?? ''}/${name}`;
  }

  add(obj: KObject): this {
    const { group } = parseApiVersion(obj.apiVersion);
    const info = resourceForKind(group, obj.kind);
    if (!info) throw new Error(`FakeCluster: unknown kind ${obj.apiVersion} ${obj.kind}`);
    this.objects.set(this.key(info.group, info.resource, info.namespaced ? obj.metadata.namespace : undefined, obj.metadata.name ?? ''), clone(obj));
    return this;
  }

  get(group: string, resource: string, namespace: string | undefined, name: string): KObject | undefined {
    const o = this.objects.get(this.key(group, resource, namespace, name));
    return o ? clone(o) : undefined;
  }

  list(group: string, resource: string, namespace?: string): KObject[] {
    const prefix = namespace === undefined ? `${group}/${resource}/` : `${group}/${resource}/${namespace}/`;
    return [...this.objects.entries()]
      .filter(([k]) => k.startsWith(prefix))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, o]) => clone(o));
  }
}

export const ADMIN: UserInfo = { username: 'kubernetes-admin', groups: ['kubeadm:cluster-admins', 'system:authenticated'] };

export interface AttrsInit {
  operation?: AdmissionOperation;
  group?: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  object?: KObject | null;
  oldObject?: KObject | null;
  userInfo?: UserInfo;
  dryRun?: boolean;
  options?: Record<string, unknown>;
  now?: number;
}

export function attrs(init: AttrsInit): AdmissionAttributes {
  const group = init.group ?? '';
  const info = resourceFor(group, init.resource);
  if (!info) throw new Error(`attrs: unknown resource ${group}/${init.resource}`);
  const obj = init.object ?? null;
  const name = init.name ?? (init.operation === 'CREATE' || init.operation === undefined ? '' : (obj?.metadata.name ?? ''));
  return {
    operation: init.operation ?? 'CREATE',
    resource: info,
    subresource: init.subresource ?? '',
    namespace: init.namespace ?? (info.namespaced ? (obj?.metadata.namespace ?? 'default') : ''),
    name,
    kind: { group: info.group, version: info.version, kind: info.kind },
    object: obj,
    oldObject: init.oldObject ?? null,
    userInfo: init.userInfo ?? ADMIN,
    dryRun: init.dryRun ?? false,
    options: init.options ?? {},
    now: init.now ?? 1_700_000_000_000,
  };
}

export function namespace(name: string, labels: Record<string, string> = {}, phase = 'Active'): KObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'kubernetes.io/metadata.name': name, ...labels } }, spec: { finalizers: ['kubernetes'] }, status: { phase } };
}

export function serviceAccountObj(name: string, ns: string, extra: Record<string, unknown> = {}): KObject {
  return { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: ns }, ...extra };
}

export function pod(name: string, ns: string, containers: Record<string, unknown>[] = [{ name: 'nginx', image: 'nginx:1.27' }], extra: Record<string, unknown> = {}): KObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: ns }, spec: { containers, ...extra } };
}

registerClass('AdmissionFakeCluster', FakeCluster);

/** Fills each ResourceQuota's status as the resourcequota controller would (hard = spec.hard, used measured). */
export function measureQuotas(cluster: FakeCluster, now = 0): FakeCluster {
  for (const quota of cluster.list('', 'resourcequotas')) {
    const hard = specHard(quota);
    const used = new Map();
    for (const ev of controllerEvaluators()) {
      const resources = [...hard.keys()].filter((k) => ev.matchesResourceName(k));
      if (resources.length === 0) continue;
      for (const [k, q] of usageStats(quota, ev, resources, cluster.list(ev.group, ev.resource, quota.metadata.namespace), now)) used.set(k, q);
    }
    cluster.add({ ...quota, metadata: { ...quota.metadata, resourceVersion: quota.metadata.resourceVersion ?? '7' }, status: { hard: resourceListJson(hard), used: resourceListJson(used) } });
  }
  return cluster;
}
