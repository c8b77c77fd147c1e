// A controller of kube-controller-manager, as the manager hosts it: the shared
// informers it reads, a rate-limited work queue of object keys (client-go's
// pattern: event handlers enqueue keys, a worker syncs one key at a time),
// and REST calls made as the controller's own ServiceAccount. Effects go
// through the context; answers come back to onResponse with the tag given.
import type { KObject } from '../../apimachinery/types';
import type { ReflectorEvent } from '../../client/reflector';
import type { RateLimitingQueue } from '../../client/workqueue';
import type { PeriodicLoops } from './loops';
import type { Rng } from '../../sim/rng';

/** Informers the manager can run, by name (the resource's plural), with their collection paths. */
export const INFORMER_PATHS: Record<string, string> = {
  namespaces: '/api/v1/namespaces',
  serviceaccounts: '/api/v1/serviceaccounts',
  configmaps: '/api/v1/configmaps',
  secrets: '/api/v1/secrets',
  pods: '/api/v1/pods',
  nodes: '/api/v1/nodes',
  services: '/api/v1/services',
  endpoints: '/api/v1/endpoints',
  persistentvolumes: '/api/v1/persistentvolumes',
  persistentvolumeclaims: '/api/v1/persistentvolumeclaims',
  replicationcontrollers: '/api/v1/replicationcontrollers',
  replicasets: '/apis/apps/v1/replicasets',
  deployments: '/apis/apps/v1/deployments',
  statefulsets: '/apis/apps/v1/statefulsets',
  daemonsets: '/apis/apps/v1/daemonsets',
  controllerrevisions: '/apis/apps/v1/controllerrevisions',
  jobs: '/apis/batch/v1/jobs',
  cronjobs: '/apis/batch/v1/cronjobs',
  endpointslices: '/apis/discovery.k8s.io/v1/endpointslices',
  leases: '/apis/coordination.k8s.io/v1/leases',
  poddisruptionbudgets: '/apis/policy/v1/poddisruptionbudgets',
  storageclasses: '/apis/storage.k8s.io/v1/storageclasses',
  resourcequotas: '/api/v1/resourcequotas',
  horizontalpodautoscalers: '/apis/autoscaling/v2/horizontalpodautoscalers',
};

export interface ApiCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** For PATCH: application/merge-patch+json (default), application/strategic-merge-patch+json, application/json-patch+json. */
  contentType?: string;
}

export interface EventSpec {
  regarding: KObject;
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  /** source.component when it is not the controller's name (the PV controller's "persistentvolume-controller"). */
  component?: string;
}

/** What a controller may do and see (the manager implements it). */
export interface ControllerContext {
  /** Virtual time, ms. */
  readonly now: number;
  readonly rng: Rng;
  /** A shared informer's store ("namespace/name" or "name" → object); empty until synced. */
  store(resource: string): ReadonlyMap<string, KObject>;
  synced(resource: string): boolean;
  /** One namespace's objects of an informer, in store order (a lister's List through the namespace index). */
  list(resource: string, namespace: string): KObject[];
  /**
   * From the pods informer: the pods controlled by `ownerUid` and the orphans
   * of `namespace` (controller.FilterPodsByOwner; in no promised order).
   */
  podsOwnedBy(namespace: string, ownerUid: string): KObject[];
  /** A REST call as this controller's ServiceAccount; the answer goes to onResponse(tag, …). */
  request(call: ApiCall, tag: unknown): void;
  /** A core/v1 Event from this controller (source.component kube-controller-manager style, as upstream's recorders). */
  event(e: EventSpec): void;
}

/** One sync of a key: done, requeue with rate limiting (an error), or after a delay (ms). */
export type SyncResult = { type: 'done' } | { type: 'error'; message: string } | { type: 'after'; delayMs: number };

export interface Controller {
  /** Upstream's controller name, also its ServiceAccount in kube-system ("replicaset-controller"). */
  readonly name: string;
  /** The informers it reads. */
  readonly informers: readonly string[];
  /** Its work queue (RateLimitingQueue of keys), owned here so the manager can show depth and latency. */
  readonly queue: RateLimitingQueue<string>;
  /** An informer changed: enqueue what must be synced (through this.queue.add(key, ctx.now)). */
  onEvent(resource: string, ev: ReflectorEvent, ctx: ControllerContext): void;
  /** Reconcile one key (idempotent; reads the stores, makes calls through ctx). */
  sync(key: string, ctx: ControllerContext): SyncResult;
  /** The answer to a request made with `tag`. Status 0 = the connection failed. */
  onResponse(tag: unknown, status: number, body: string, ctx: ControllerContext): void;
  /**
   * Runs with kube-controller-manager's own credentials (the root client
   * builder), not a ServiceAccount of its own, as the tokens controller does.
   */
  readonly rootCredentials?: boolean;
  /** Recent reconciles, for the controllers panel (bounded). */
  readonly recent?: { t: number; key: string; what: string }[];
  /** Its periodic passes (upstream wait.Until), run by the manager through runPass, outside the queue. */
  readonly loops?: PeriodicLoops;
  /** One periodic pass; returns when the next one is due (ms from now), or null to stop. */
  runPass?(pass: string, ctx: ControllerContext): number | null;
}
