// The image puller (pkg/kubelet/images): serialized pulls (serializeImagePulls),
// each taking the image's size over the node's bandwidth; an unknown image
// fails to resolve after a short while.
import type { Kubelet } from '../kubelet';
import { lookupImage, parseImage } from '../runtime/images';

const RESOLVE_FAIL_MS = 800;

/** A pull of the node's serialized image puller. */
export interface Pull {
  image: string;
  doneAt: number;
  ok: boolean;
}

/** Starts (or joins) a pull on the node's serialized puller; its completion time. */
export function pull(k: Kubelet, now: number, image: string, alwaysPull: boolean): Pull {
  const pending = k.pulls.find((p) => p.image === image);
  if (pending) return pending;
  const ref = parseImage(image);
  const img = lookupImage(ref);
  const start = Math.max(now, k.pullFreeAt);
  const cached = k.images.has(ref.full);
  const ms = !img ? RESOLVE_FAIL_MS : cached && alwaysPull ? 200 : Math.ceil((img.sizeBytes / k.config.imageBandwidthBytesPerSec) * 1000);
  const p: Pull = { image, doneAt: start + ms, ok: !!img };
  k.pullFreeAt = p.doneAt;
  k.pulls.push(p);
  return p;
}

export function finishPulls(k: Kubelet, now: number): void {
  for (let i = k.pulls.length - 1; i >= 0; i--) {
    const p = k.pulls[i]!;
    if (p.doneAt > now) continue;
    // A failed pull stays until a worker reads its error.
    if (!p.ok) continue;
    const ref = parseImage(p.image);
    k.images.set(ref.full, lookupImage(ref)!.sizeBytes);
    k.pulls.splice(i, 1);
  }
}
