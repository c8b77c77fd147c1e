// Fetching the ConfigMaps and Secrets a pod refers to (the object cache's GETs).
import type { ActorContext } from '../../sim/kernel';
import type { Pod } from '../../scheduler/framework/api';
import { apiRequest } from '../client';
import type { Kubelet } from '../kubelet';
import { ObjectCache, type ObjectKind } from './objects';

export function requestObjects(k: Kubelet, ctx: ActorContext, pod: Pod, refs: readonly { kind: ObjectKind; name: string }[]): void {
  const ns = pod.metadata.namespace ?? 'default';
  const keys = refs.map((r) => ObjectCache.key(r.kind, ns, r.name));
  for (const key of k.objects.due(keys, ctx.now, pod.metadata.uid ?? '')) {
    const [kind, namespace, name] = key.split('/') as [ObjectKind, string, string];
    apiRequest(k, ctx, { method: 'GET', path: `/api/v1/namespaces/${namespace}/${kind}/${name}`, query: {} }, { kind: 'object', key });
  }
}
