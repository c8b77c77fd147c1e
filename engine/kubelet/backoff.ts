// flowcontrol.Backoff as the kubelet uses it for image pulls and crash loops
// (pkg/kubelet/kubelet.go: 10 s initial, doubling to 300 s; an entry idle for
// twice the maximum is forgotten).
import { BACKOFF_INITIAL_MS, BACKOFF_MAX_MS } from './config';
import type { Kubelet } from './kubelet';
import type { ContainerRt, PodWorker } from './status/generate';

/** A back-off entry (flowcontrol.Backoff). */
export interface BackoffEntry {
  backoffMs: number;
  lastUpdate: number;
}

export function backoffKey(k: Kubelet, w: PodWorker, c: ContainerRt, kind: string): string {
  return `${w.uid}/${c.name}/${kind}`;
}

/** flowcontrol.Backoff.IsInBackOffSince. */
export function inBackoff(k: Kubelet, key: string, since: number, now: number): boolean {
  const e = k.backoff.get(key);
  if (!e || now - e.lastUpdate > 2 * BACKOFF_MAX_MS) return false;
  return now - since < e.backoffMs;
}

/** flowcontrol.Backoff.Next. */
export function nextBackoff(k: Kubelet, key: string, now: number): number {
  const e = k.backoff.get(key);
  const ms = !e || now - e.lastUpdate > 2 * BACKOFF_MAX_MS ? BACKOFF_INITIAL_MS : Math.min(e.backoffMs * 2, BACKOFF_MAX_MS);
  k.backoff.set(key, { backoffMs: ms, lastUpdate: now });
  return ms;
}
