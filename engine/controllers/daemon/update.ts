// DaemonSet history and rolling update, after upstream v1.32's
// pkg/controller/daemon/update.go: ControllerRevisions named
// `<ds>-<template hash>` (controller.ComputeHash of the template, as the
// pod-template-hash of Deployments) holding the template patch; the current
// revision is the one whose patch equals the DaemonSet's; older ones beyond
// revisionHistoryLimit go once no pod uses them. A rolling update deletes old
// pods up to maxUnavailable (the manage loop then creates new ones), or with
// maxSurge creates new pods beside the old ones first.
import type { KObject } from '../../apimachinery/types';
import { isPodAvailable } from '../replicaset/podUtil';
import { computeHash } from '../deployment/hash';
import { rawData, revisionNumber, sortControllerRevisions, templatePatch } from '../history/history';
import { newControllerRef, KIND } from '../replicaset/podUtil';
import { dsSpec, dsStatus, HASH_LABEL, isPodUpdated, nodeShouldRunDaemonPod, surgeCount, templateGeneration, unavailableCount } from './util';

/** Match: the revision restores exactly the DaemonSet's current template. */
export const matchesRevision = (ds: KObject, cr: KObject): boolean => templatePatch(ds) === rawData(cr);

/** snapshot: the revision for the DaemonSet's template now. */
export function snapshot(ds: KObject, revision: number): KObject {
  const hash = computeHash(dsSpec(ds).template ?? {}, dsStatus(ds).collisionCount);
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: `${ds.metadata.name}-${hash}`,
      namespace: ds.metadata.namespace,
      labels: { ...(dsSpec(ds).template?.metadata?.labels ?? {}), [HASH_LABEL]: hash },
      ...(ds.metadata.annotations ? { annotations: { ...ds.metadata.annotations } } : {}),
      ownerReferences: [newControllerRef(ds, KIND.DaemonSet)],
    },
    data: JSON.parse(templatePatch(ds)) as unknown,
    revision,
  };
}

export interface History {
  /** The current revision, or null while it must still be created/deduplicated. */
  cur: KObject | null;
  old: KObject[];
  /** Writes constructHistory needs first (labels, creation, dedup, renumbering). */
  writes: { method: 'POST' | 'PUT' | 'DELETE'; cr: KObject }[];
  /** dedupCurHistories: before duplicates go, every pod of the DaemonSet not labelled with this hash gets it. */
  relabel?: string;
}

/** constructHistory: split the owned revisions into current and old; plan what makes the current one exist and be newest. */
export function constructHistory(ds: KObject, histories: KObject[]): History {
  const writes: History['writes'] = [];
  const current: KObject[] = [];
  const old: KObject[] = [];
  for (let h of histories) {
    if (h.metadata.labels?.[HASH_LABEL] === undefined) {
      // Label the revision with its name (not a recomputed hash, so collisions do not matter).
      h = { ...h, metadata: { ...h.metadata, labels: { ...(h.metadata.labels ?? {}), [HASH_LABEL]: h.metadata.name! } } };
      writes.push({ method: 'PUT', cr: h });
    }
    (matchesRevision(ds, h) ? current : old).push(h);
  }
  const currRevision = Math.max(0, ...old.map(revisionNumber)) + 1;
  if (current.length === 0) {
    writes.push({ method: 'POST', cr: snapshot(ds, currRevision) });
    return { cur: null, old, writes };
  }
  // dedupCurHistories: keep the highest revision; the pods get its hash (all whose label differs, as upstream does), the others go.
  const sorted = sortControllerRevisions(current);
  const keep = sorted[sorted.length - 1]!;
  for (const dup of sorted.slice(0, -1)) writes.push({ method: 'DELETE', cr: dup });
  const relabel = sorted.length > 1 ? { relabel: keep.metadata.labels?.[HASH_LABEL] ?? '' } : {};
  if (revisionNumber(keep) < currRevision) {
    const bumped = { ...keep, revision: currRevision };
    writes.push({ method: 'PUT', cr: bumped });
    return { cur: bumped, old, writes, ...relabel };
  }
  return { cur: keep, old, writes, ...relabel };
}

/** cleanupHistory: the oldest old revisions beyond the limit that no pod's hash still names. */
export function historyToDelete(ds: KObject, old: KObject[], livePods: KObject[]): KObject[] {
  const toKill0 = old.length - (dsSpec(ds).revisionHistoryLimit ?? 10);
  if (toKill0 <= 0) return [];
  const live = new Set(livePods.map((p) => p.metadata.labels?.[HASH_LABEL]).filter((h): h is string => !!h));
  let toKill = toKill0;
  const out: KObject[] = [];
  for (const h of sortControllerRevisions(old)) {
    if (toKill <= 0) break;
    if (live.has(h.metadata.labels?.[HASH_LABEL] ?? '')) continue;
    out.push(h);
    toKill--;
  }
  return out;
}

/** findUpdatedPodsOnNode: at most one new and one old non-deleted pod, else not ok. */
export function findUpdatedPodsOnNode(ds: KObject, pods: readonly KObject[], hash: string): { newPod: KObject | null; oldPod: KObject | null; ok: boolean } {
  let newPod: KObject | null = null;
  let oldPod: KObject | null = null;
  const gen = templateGeneration(ds);
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    if (isPodUpdated(pod, hash, gen)) {
      if (newPod) return { newPod: null, oldPod: null, ok: false };
      newPod = pod;
    } else {
      if (oldPod) return { newPod: null, oldPod: null, ok: false };
      oldPod = pod;
    }
  }
  return { newPod, oldPod, ok: true };
}

export interface RollingPlan {
  podsToDelete: string[];
  nodesToCreate: string[];
}

/**
 * rollingUpdate: which old pods to delete (and, surging, which nodes get a
 * new pod beside the old one). `nodeToPods` has an entry for every node that
 * should run the pod (empty when it has none: an unavailable node).
 */
export function rollingUpdate(ds: KObject, nodes: readonly KObject[], nodeToPods: Map<string, KObject[]>, hash: string, now: number): RollingPlan {
  const minReady = dsSpec(ds).minReadySeconds ?? 0;
  const available = (p: KObject) => isPodAvailable(p, minReady, now);
  // updatedDesiredNodeCounts
  let desired = 0;
  const byName = new Map(nodes.map((n) => [n.metadata.name!, n]));
  for (const n of nodes) {
    if (!nodeShouldRunDaemonPod(n, ds).shouldRun) continue;
    desired++;
    if (!nodeToPods.has(n.metadata.name!)) nodeToPods.set(n.metadata.name!, []);
  }
  let maxUnavailable = unavailableCount(ds, desired);
  const maxSurge = surgeCount(ds, desired);
  if (desired > 0 && maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;
  const entries = [...nodeToPods].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

  if (maxSurge === 0) {
    // Delete just enough old pods to stay within maxUnavailable; the manage loop recreates them.
    let numUnavailable = 0;
    const allowedReplacement: string[] = [];
    const candidates: string[] = [];
    for (const [, pods] of entries) {
      const { newPod, oldPod, ok } = findUpdatedPodsOnNode(ds, pods, hash);
      if (!ok) {
        numUnavailable++;
        continue;
      }
      if ((!oldPod && !newPod) || (oldPod && newPod)) numUnavailable++;
      else if (newPod) {
        if (!available(newPod)) numUnavailable++;
      } else if (!available(oldPod!)) allowedReplacement.push(oldPod!.metadata.name!);
      else if (numUnavailable >= maxUnavailable) continue;
      else candidates.push(oldPod!.metadata.name!);
    }
    const remaining = Math.min(Math.max(0, maxUnavailable - numUnavailable), candidates.length);
    return { podsToDelete: [...allowedReplacement, ...candidates.slice(0, remaining)], nodesToCreate: [] };
  }

  // Surging: a new pod beside each old one (at most maxSurge at a time), the old one goes once the new is available.
  const oldPodsToDelete: string[] = [];
  const shouldNotRunPodsToDelete: KObject[] = [];
  const candidateNewNodes: string[] = [];
  const allowedNewNodes: string[] = [];
  let numSurge = 0;
  let numAvailable = 0;
  for (const [nodeName, pods] of entries) {
    const { newPod, oldPod, ok } = findUpdatedPodsOnNode(ds, pods, hash);
    if (!ok) {
      numSurge++;
      continue;
    }
    if (oldPod) {
      if (available(oldPod)) numAvailable++;
    } else if (newPod && available(newPod)) numAvailable++;
    if (!oldPod) continue;
    const node = byName.get(nodeName);
    if (!newPod) {
      const shouldRun = node ? nodeShouldRunDaemonPod(node, ds).shouldRun : false;
      if (!available(oldPod)) {
        if (!shouldRun) oldPodsToDelete.push(oldPod.metadata.name!);
        else allowedNewNodes.push(nodeName);
      } else if (!shouldRun) shouldNotRunPodsToDelete.push(oldPod);
      else if (numSurge < maxSurge) candidateNewNodes.push(nodeName);
      continue;
    }
    if (!available(newPod)) {
      numSurge++;
      continue;
    }
    oldPodsToDelete.push(oldPod.metadata.name!);
  }
  const deletable = Math.min(numAvailable - desired, shouldNotRunPodsToDelete.length);
  for (const p of shouldNotRunPodsToDelete.slice(0, Math.max(0, deletable))) if (!p.metadata.deletionTimestamp) oldPodsToDelete.push(p.metadata.name!);
  const remainingSurge = Math.min(Math.max(0, maxSurge - numSurge), candidateNewNodes.length);
  return { podsToDelete: oldPodsToDelete, nodesToCreate: [...allowedNewNodes, ...candidateNewNodes.slice(0, remainingSurge)] };
}
