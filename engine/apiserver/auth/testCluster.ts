// For tests: a ClusterReader over a Map, keyed as the watch cache would key objects.
import { parseApiVersion, type KObject } from '../../apimachinery/types';
import { resourceForKind } from '../registry/resources';
import type { ClusterReader } from '../types';

/** Kinds the registry table may not list but auth tests need. */
const EXTRA_KINDS: Record<string, string> = { VolumeAttachment: 'volumeattachments', CSINode: 'csinodes' };

function resourceOf(obj: KObject): { group: string; resource: string } {
  const { group } = parseApiVersion(obj.apiVersion);
  const r = resourceForKind(group, obj.kind);
  if (r) return { group, resource: r.resource };
  const extra = EXTRA_KINDS[obj.kind];
  if (extra) return { group, resource: extra };
  throw new Error(`test cluster: unknown kind ${obj.apiVersion} ${obj.kind}`);
}

export class MemoryCluster implements ClusterReader {
  readonly objects = new Map<string, KObject>();

  constructor(objs: readonly KObject[] = []) {
    for (const o of objs) this.put(o);
  }

  private static key(group: string, resource: string, namespace: string | undefined, name: string): string {
    return `${group}/${resource}/${namespace ?? ''}/${name}`;
  }

  put(obj: KObject): this {
    const { group, resource } = resourceOf(obj);
    this.objects.set(MemoryCluster.key(group, resource, obj.metadata.namespace, obj.metadata.name ?? ''), obj);
    return this;
  }

  delete(obj: KObject): this {
    const { group, resource } = resourceOf(obj);
    this.objects.delete(MemoryCluster.key(group, resource, obj.metadata.namespace, obj.metadata.name ?? ''));
    return this;
  }

  get(group: string, resource: string, namespace: string | undefined, name: string): KObject | undefined {
    return this.objects.get(MemoryCluster.key(group, resource, namespace || undefined, name));
  }

  list(group: string, resource: string, namespace?: string): KObject[] {
    const prefix = namespace === undefined ? `${group}/${resource}/` : `${group}/${resource}/${namespace}/`;
    return [...this.objects.entries()]
      .filter(([k]) => k.startsWith(prefix))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, v]) => v);
  }
}

// Small object builders.
export const ns = (name: string): KObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
export const sa = (namespace: string, name: string, uid = `uid-sa-${namespace}-${name}`): KObject => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { namespace, name, uid } });
export const node = (name: string, uid = `uid-node-${name}`): KObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, uid } });
export function pod(namespace: string, name: string, spec: Record<string, unknown> = {}, uid = `uid-pod-${namespace}-${name}`): KObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { namespace, name, uid }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } };
}
export const secret = (namespace: string, name: string, data: Record<string, string> = {}, uid = `uid-secret-${namespace}-${name}`): KObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { namespace, name, uid },
  data,
});
export const configMap = (namespace: string, name: string): KObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace, name } });
