// ImageLocality (pkg/scheduler/framework/plugins/imagelocality/image_locality.go, v1.32):
// favours nodes that already hold the pod's images (init containers
// included). Each present image scores its size scaled by its spread
// (nodes having it / all nodes), against the thresholds [23MiB, 1000MiB ×
// containers]. A Score plugin only: no normalisation, no events.
import { registerClass } from '../../sim/serial';
import type { Pod } from '../framework/api';
import { stateKey, type CycleState } from '../framework/cycleState';
import { MAX_NODE_SCORE, type Handle, type PluginDefinition, type ScorePlugin } from '../framework/interface';
import type { ImageStateSummary, NodeInfo } from '../framework/nodeInfo';
import type { Status } from '../framework/status';
import type { ScoreInputs } from '../framework/scoreInputs';

const MB = 1024 * 1024;
export const MIN_THRESHOLD = 23 * MB;
export const MAX_CONTAINER_THRESHOLD = 1000 * MB;

/** parsers.DefaultImageTag */
const DEFAULT_IMAGE_TAG = 'latest';

/** normalizedImageName: adds ":latest" when the name has no tag (the last ':' is not after the last '/'). */
export function normalizedImageName(name: string): string {
  return name.lastIndexOf(':') <= name.lastIndexOf('/') ? `${name}:${DEFAULT_IMAGE_TAG}` : name;
}

/** scaledImageScore: int64(float64(size) * float64(numNodes)/float64(totalNumNodes)). */
export function scaledImageScore(state: ImageStateSummary, totalNumNodes: number): number {
  const spread = state.numNodes / totalNumNodes;
  return Math.trunc(state.size * spread);
}

/** calculatePriority: the clamped sum scaled into [0, MaxNodeScore] with int64 division. */
export function calculatePriority(sumScores: number, numContainers: number): number {
  const maxThreshold = MAX_CONTAINER_THRESHOLD * numContainers;
  let sum = sumScores;
  if (sum < MIN_THRESHOLD) sum = MIN_THRESHOLD;
  else if (sum > maxThreshold) sum = maxThreshold;
  // With no containers maxThreshold is 0 and the clamped sum is MIN_THRESHOLD: Go gets 0/-min = 0.
  if (sum === MIN_THRESHOLD) return 0;
  return Math.trunc((MAX_NODE_SCORE * (sum - MIN_THRESHOLD)) / (maxThreshold - MIN_THRESHOLD));
}

/** The pod's image names, normalized once per cycle (init containers first, as upstream sums them). */
const IMAGES_KEY = stateKey<string[]>('ScoreImageLocalityImages');

function podImages(pod: Pod): string[] {
  const out: string[] = [];
  for (const c of pod.spec.initContainers ?? []) out.push(normalizedImageName(c.image ?? ''));
  for (const c of pod.spec.containers ?? []) out.push(normalizedImageName(c.image ?? ''));
  return out;
}

/** sumImageScores over already-normalized image names. */
export function sumImageScores(nodeInfo: NodeInfo, images: readonly string[], totalNumNodes: number): number {
  const states = nodeInfo.imageStates;
  // A node without images (a fresh or kwok node) has nothing to look up.
  if (states.size === 0) return 0;
  let sum = 0;
  for (let i = 0; i < images.length; i++) {
    const state = states.get(images[i]!);
    if (state !== undefined) sum += scaledImageScore(state, totalNumNodes);
  }
  return sum;
}

export class ImageLocality implements ScorePlugin {
  readonly name = 'ImageLocality';

  constructor(readonly handle: Handle) {}

  score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): number | Status {
    // Upstream normalizes names per node; we do it on the first node of the
    // cycle and keep the list in the cycle state (same result, no per-node strings).
    let images = state.read(IMAGES_KEY);
    if (images === undefined) {
      images = podImages(pod);
      state.write(IMAGES_KEY, images);
    }
    const totalNumNodes = this.handle.nodes.list().length;
    return calculatePriority(sumImageScores(nodeInfo, images, totalNumNodes), images.length);
  }

  scoreNodes(state: CycleState, pod: Pod, nodes: readonly NodeInfo[], out: Float64Array): Status | null {
    if (nodes.length === 0) return null;
    let images = state.read(IMAGES_KEY);
    if (images === undefined) {
      images = podImages(pod);
      state.write(IMAGES_KEY, images);
    }
    const totalNumNodes = this.handle.nodes.list().length;
    for (let n = 0; n < nodes.length; n++) out[n] = calculatePriority(sumImageScores(nodes[n]!, images, totalNumNodes), images.length);
    return null;
  }

  /** The pod's images already on the node, with their sizes and spread; null when none is. */
  scoreInputs(state: CycleState, pod: Pod, nodeInfo: NodeInfo): ScoreInputs | null {
    if (nodeInfo.imageStates.size === 0) return null;
    const images = state.read(IMAGES_KEY) ?? podImages(pod);
    let present: { name: string; size: number; nodes: number }[] | null = null;
    for (const name of images) {
      const st = nodeInfo.imageStates.get(name);
      if (st !== undefined) (present ??= []).push({ name, size: st.size, nodes: st.numNodes });
    }
    return present ? { kind: 'imageLocality', totalNodes: this.handle.nodes.list().length, containers: images.length, images: present } : null;
  }

  scoreExtensions(): null {
    return null;
  }
}

registerClass('PluginImageLocality', ImageLocality);

export const imageLocalityDefinition: PluginDefinition = {
  name: 'ImageLocality',
  factory: (_args, handle) => new ImageLocality(handle),
};
