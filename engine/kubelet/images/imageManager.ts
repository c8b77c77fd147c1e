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

// The reference grammar of github.com/distribution/reference (regexp.go), which the kubelet's
// parsers.ParseImageName applies through ParseNormalizedNamed before anything else.
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[0-9a-fA-F:.]+\\])(?::[0-9]+)?`;
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const NAME = `(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const REFERENCE = new RegExp(`^${NAME}(?::[\\w][\\w.-]{0,127})?(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9A-Fa-f]{32,})?$`);

/** Why ParseNormalizedNamed refuses `image` (the error's text), or null when it parses. */
export function invalidImageReference(image: string): string | null {
  if (/^[a-f0-9]{64}$/.test(image)) return `invalid repository name (${image}), cannot specify 64-byte hexadecimal strings`;
  // splitDockerDomain: the first component is a registry if it has a dot or a port, is localhost, or is not lowercase.
  const i = image.indexOf('/');
  const first = i < 0 ? '' : image.slice(0, i);
  const hasDomain = i >= 0 && (/[.:]/.test(first) || first === 'localhost' || first.toLowerCase() !== first);
  let remainder = hasDomain ? image.slice(i + 1) : image;
  const domain = hasDomain ? (first === 'index.docker.io' ? 'docker.io' : first) : 'docker.io';
  if (domain === 'docker.io' && !remainder.includes('/')) remainder = `library/${remainder}`;
  const colon = remainder.indexOf(':');
  const remoteName = colon < 0 ? remainder : remainder.slice(0, colon);
  if (remoteName.toLowerCase() !== remoteName) return `invalid reference format: repository name (${remoteName}) must be lowercase`;
  const full = `${domain}/${remainder}`;
  if (REFERENCE.test(full)) return null;
  if (full === '') return 'repository name must have at least one component';
  return REFERENCE.test(full.toLowerCase()) ? 'repository name must be lowercase' : 'invalid reference format';
}

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
  // applyDefaultImageTag: a name that does not parse is InvalidImageName, before any pull policy.
  const invalid = invalidImageReference(image);
  if (invalid !== null) {
    const message = `Failed to apply default image tag "${image}": couldn't parse image name "${image}": ${invalid}`;
    events.push({ type: 'Warning', reason: 'InspectFailed', message });
    return { result: { type: 'error', reason: { reason: 'InvalidImageName', message }, retryAt: now + 10_000 }, wait: undefined };
  }
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
