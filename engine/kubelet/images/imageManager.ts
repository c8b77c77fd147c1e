// EnsureImageExists (pkg/kubelet/images/image_manager.go): the pull policy
// (Always, IfNotPresent, Never), the per-pod, per-image pull back-off
// (ErrImagePull, then ImagePullBackOff while backing off, 10 s doubling to
// 300 s) and the events each step records, over the runtime's serialized
// puller (serializeImagePulls: one pull at a time per node).
import { formatGoDuration } from '../../scheduler/config/goText';
import { parseImage } from '../runtime/images';
import type { FakeRuntime } from '../runtime/runtime';
import type { Backoff } from '../backoff';
import type { ReasonEntry } from '../status/generate';
import type { PullWait } from '../pod/worker';

export type EnsureResult =
  | { type: 'ok' }
  /** Waiting on a pull that completes at `until`. */
  | { type: 'pulling'; until: number }
  | { type: 'error'; reason: ReasonEntry; retryAt: number };

export interface ImageEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

const goDuration = (ms: number) => formatGoDuration(BigInt(Math.round(ms)) * 1_000_000n);

/** The defaulted pull policy: Always for :latest (or no tag), IfNotPresent otherwise. */
export function pullPolicyOf(image: string, policy: string | undefined): string {
  if (policy) return policy;
  const tag = image.includes('@') ? 'digest' : parseImage(image).tag;
  return tag === 'latest' ? 'Always' : 'IfNotPresent';
}

/**
 * Drives one container's image to present. `wait` is the pull this container
 * already waits on (kept by the pod worker between syncs).
 */
export function ensureImage(
  rt: FakeRuntime,
  backoff: Backoff,
  podUid: string,
  image: string,
  policy: string,
  wait: PullWait | undefined,
  now: number,
  events: ImageEvent[],
): { result: EnsureResult; wait: PullWait | undefined } {
  const present = rt.hasImage(image);
  const mustPull = policy === 'Always' || (policy === 'IfNotPresent' && !present);
  if (!wait) {
    if (!mustPull) {
      if (present) {
        events.push({ type: 'Normal', reason: 'Pulled', message: `Container image "${image}" already present on machine` });
        return { result: { type: 'ok' }, wait: undefined };
      }
      const message = `Container image "${image}" is not present with pull policy of Never`;
      events.push({ type: 'Warning', reason: 'ErrImageNeverPull', message });
      return { result: { type: 'error', reason: { reason: 'ErrImageNeverPull', message }, retryAt: now + 10_000 }, wait: undefined };
    }
    const key = `${podUid}_${image}`;
    if (backoff.inBackoffSinceUpdate(key, now)) {
      const message = `Back-off pulling image "${image}"`;
      events.push({ type: 'Normal', reason: 'BackOff', message });
      const e = backoff.entries.get(key)!;
      return { result: { type: 'error', reason: { reason: 'ImagePullBackOff', message }, retryAt: e.lastUpdate + e.backoffMs }, wait: undefined };
    }
    events.push({ type: 'Normal', reason: 'Pulling', message: `Pulling image "${image}"` });
    const p = rt.pullImage(image, now);
    wait = { image, requestedAt: now, startedAt: p.startedAt, doneAt: p.doneAt, error: p.error };
  }
  const pull = wait;
  if (pull.doneAt > now) return { result: { type: 'pulling', until: pull.doneAt }, wait };
  rt.advance(now);
  if (pull.error) {
    const key = `${podUid}_${image}`;
    const err = `rpc error: code = ${pull.error.code} desc = ${pull.error.message}`;
    events.push({ type: 'Warning', reason: 'Failed', message: `Failed to pull image "${image}": ${err}` });
    backoff.next(key, now, now);
    return { result: { type: 'error', reason: { reason: 'ErrImagePull', message: err }, retryAt: now + backoff.get(key) }, wait: undefined };
  }
  const size = rt.images.get(parseImage(image).full)?.sizeBytes ?? 0;
  events.push({
    type: 'Normal',
    reason: 'Pulled',
    message: `Successfully pulled image "${image}" in ${goDuration(pull.doneAt - pull.startedAt)} (${goDuration(pull.doneAt - wait.requestedAt)} including waiting). Image size: ${size} bytes.`,
  });
  return { result: { type: 'ok' }, wait: undefined };
}
