// Builders for ReplicaSets and pods in unit tests.
import type { KObject } from '../../apimachinery/types';
import { rfc3339 } from '../../apiserver/http/time';
import { newControllerRef } from './podUtil';

export function replicaSet(name: string, replicas: number, extra: { labels?: Record<string, string>; minReadySeconds?: number; uid?: string; owner?: KObject } = {}): KObject {
  const labels = extra.labels ?? { app: name };
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace: 'default', uid: extra.uid ?? `uid-${name}`, resourceVersion: '1', generation: 1, ...(extra.owner ? { ownerReferences: [newControllerRef(extra.owner, { apiVersion: extra.owner.apiVersion, kind: extra.owner.kind })] } : {}) },
    spec: { replicas, minReadySeconds: extra.minReadySeconds ?? 0, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'app', image: 'nginx' }] } } },
    status: { replicas: 0 },
  };
}

export interface PodOpts {
  owner?: KObject | null;
  labels?: Record<string, string>;
  node?: string;
  phase?: string;
  ready?: boolean;
  readySince?: number;
  created?: number;
  restarts?: number;
  cost?: number;
  rv?: string;
}

export function pod(name: string, o: PodOpts = {}): KObject {
  const conditions = o.ready !== undefined ? [{ type: 'Ready', status: o.ready ? 'True' : 'False', lastTransitionTime: rfc3339(o.readySince ?? 0) }] : [];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      resourceVersion: o.rv ?? '1',
      creationTimestamp: rfc3339(o.created ?? 0),
      labels: o.labels ?? { app: o.owner?.metadata.name ?? 'web' },
      ...(o.owner ? { ownerReferences: [newControllerRef(o.owner, { apiVersion: o.owner.apiVersion, kind: o.owner.kind })] } : {}),
      ...(o.cost !== undefined ? { annotations: { 'controller.kubernetes.io/pod-deletion-cost': String(o.cost) } } : {}),
    },
    spec: { nodeName: o.node ?? '', containers: [{ name: 'app', image: 'nginx' }] },
    status: { phase: o.phase ?? 'Pending', conditions, containerStatuses: [{ name: 'app', restartCount: o.restarts ?? 0 }] },
  };
}
