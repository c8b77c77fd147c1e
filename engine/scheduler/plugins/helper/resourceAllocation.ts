// The resourceAllocationScorer shared by NodeResourcesFit's scoring strategies
// and NodeResourcesBalancedAllocation (pkg/scheduler/framework/plugins/noderesources/
// resource_allocation.go, least_allocated.go, most_allocated.go,
// requested_to_capacity_ratio.go, balanced_allocation.go; v1.32).
//
// Per configured resource: allocatable on the node, and requested = the node's
// requests plus the pod's. Fit's strategies use the "non-zero" requests (cpu
// and memory defaulted to 100m / 200Mi for containers that request none, on
// the node and for the pod); BalancedAllocation uses the plain requests
// (useRequested). Integer arithmetic truncates as Go's int64 does.
//
// Score runs for every feasible node: it allocates nothing.
import { registerClass } from '../../../sim/serial';
import type { Pod } from '../../framework/api';
import { MAX_NODE_SCORE } from '../../framework/interface';
import type { NodeInfo } from '../../framework/nodeInfo';
import { isScalarResourceName, podRequests } from '../../framework/resources';
import { errorStatus, type Status } from '../../framework/status';
import { brokenLinear, type FunctionShapePoint } from './shapeScore';
import type { ResourceInput, ScoreInputs, ScoreInputsRecorder } from '../../framework/scoreInputs';
import type { CycleState } from '../../framework/cycleState';

/** config.ResourceSpec (v1 JSON: name, weight). */
export interface ResourceSpec {
  name: string;
  weight: number;
}

/** config.ScoringStrategyType */
export type ScoringStrategyType = 'LeastAllocated' | 'MostAllocated' | 'RequestedToCapacityRatio';

/** Which formula turns (requested, allocatable) per resource into a node score. */
export type ScorerKind = ScoringStrategyType | 'BalancedAllocation';

/** config.MaxCustomPriorityScore: the top of a RequestedToCapacityRatio shape's score scale. */
export const MAX_CUSTOM_PRIORITY_SCORE = 10;

/** requested_to_capacity_ratio.go maxUtilization */
const MAX_UTILIZATION = 100;

// How a configured resource name is read off a NodeInfo (decided once, not per node).
const KIND_CPU = 0;
const KIND_MEMORY = 1;
const KIND_EPHEMERAL = 2;
/** schedutil.IsScalarResourceName: looked up in the scalar maps. */
const KIND_SCALAR = 3;
/** Anything else ("pods", "storage", …): never in Allocatable.ScalarResources, so never scored. */
const KIND_OTHER = 4;

function kindOf(name: string): number {
  switch (name) {
    case 'cpu':
      return KIND_CPU;
    case 'memory':
      return KIND_MEMORY;
    case 'ephemeral-storage':
      return KIND_EPHEMERAL;
    default:
      return isScalarResourceName(name) ? KIND_SCALAR : KIND_OTHER;
  }
}

const EXACT_LIMIT = 2 ** 50;

/** Go's int64 `a * b / c` for non-negative integers (c > 0), exact even past 2^53. */
export function mulDivTrunc(a: number, b: number, c: number): number {
  const p = a * b;
  if (p <= EXACT_LIMIT && c <= EXACT_LIMIT) return Math.trunc(p / c);
  return Number((BigInt(a) * BigInt(b)) / BigInt(c));
}

/** least_allocated.go leastRequestedScore: the unused share, 0..MaxNodeScore. */
export function leastRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0) return 0;
  if (requested > capacity) return 0;
  return mulDivTrunc(capacity - requested, MAX_NODE_SCORE, capacity);
}

/** most_allocated.go mostRequestedScore: the used share, 0..MaxNodeScore (requests past capacity count as full). */
export function mostRequestedScore(requested: number, capacity: number): number {
  if (capacity === 0) return 0;
  if (requested > capacity) requested = capacity;
  return mulDivTrunc(requested, MAX_NODE_SCORE, capacity);
}

/** requested_to_capacity_ratio.go: the shape's points scaled from 0..MaxCustomPriorityScore to 0..MaxNodeScore. */
export function scaledShape(shape: readonly { utilization: number; score: number }[]): FunctionShapePoint[] {
  const factor = Math.trunc(MAX_NODE_SCORE / MAX_CUSTOM_PRIORITY_SCORE);
  return shape.map((p) => ({ utilization: p.utilization, score: p.score * factor }));
}

export class ResourceAllocationScorer {
  /** Per resource, how it is read off a NodeInfo. */
  private readonly kinds: number[];

  /**
   * @param name upstream's scorer name (the strategy, or "NodeResourcesBalancedAllocation")
   * @param useRequested true: NodeInfo.requested and the pod's plain requests (BalancedAllocation);
   *   false: NodeInfo.nonZeroRequested for cpu/memory and the pod's non-zero requests (Fit).
   * @param shape RequestedToCapacityRatio's points, already scaled to MaxNodeScore.
   */
  constructor(
    readonly name: string,
    readonly scorer: ScorerKind,
    readonly resources: readonly ResourceSpec[],
    readonly useRequested: boolean,
    readonly shape: readonly FunctionShapePoint[] = [],
  ) {
    this.kinds = resources.map((r) => kindOf(r.name));
  }

  /** calculatePodResourceRequestList: the pod's request per configured resource, in order. */
  calculatePodResourceRequestList(pod: Pod): number[] {
    const r = podRequests(pod, !this.useRequested);
    const out: number[] = [];
    for (const spec of this.resources) {
      switch (spec.name) {
        case 'cpu':
          out.push(r.milliCPU);
          break;
        case 'memory':
          out.push(r.memory);
          break;
        case 'ephemeral-storage':
          out.push(r.ephemeralStorage);
          break;
        case 'pods':
          out.push(r.allowedPodNumber);
          break;
        default:
          out.push(r.scalar[spec.name] ?? 0);
      }
    }
    return out;
  }

  /** The allocatable half of calculateResourceAllocatableRequest (0: skip this resource). */
  private allocatable(i: number, nodeInfo: NodeInfo, podRequest: number): number {
    switch (this.kinds[i]) {
      case KIND_CPU:
        return nodeInfo.allocatable.milliCPU;
      case KIND_MEMORY:
        return nodeInfo.allocatable.memory;
      case KIND_EPHEMERAL:
        return nodeInfo.allocatable.ephemeralStorage;
      case KIND_SCALAR:
        // An extended resource the pod does not request is left out of the score.
        if (podRequest === 0) return 0;
        return nodeInfo.allocatable.scalar[this.resources[i]!.name] ?? 0;
      default:
        return 0;
    }
  }

  /** The requested half: the node's requests (non-zero for cpu/memory unless useRequested) plus the pod's. */
  private requested(i: number, nodeInfo: NodeInfo, podRequest: number): number {
    switch (this.kinds[i]) {
      case KIND_CPU:
        return (this.useRequested ? nodeInfo.requested.milliCPU : nodeInfo.nonZeroRequested.milliCPU) + podRequest;
      case KIND_MEMORY:
        return (this.useRequested ? nodeInfo.requested.memory : nodeInfo.nonZeroRequested.memory) + podRequest;
      case KIND_EPHEMERAL:
        return nodeInfo.requested.ephemeralStorage + podRequest;
      case KIND_SCALAR:
        return (nodeInfo.requested.scalar[this.resources[i]!.name] ?? 0) + podRequest;
      default:
        return 0;
    }
  }

  /** resourceAllocationScorer.score: the node's raw score, or an Error status when no resources are configured. */
  score(nodeInfo: NodeInfo, podRequests: readonly number[]): number | Status {
    if (this.resources.length === 0) return errorStatus('resources not found');
    switch (this.scorer) {
      case 'LeastAllocated':
      case 'MostAllocated':
        return this.weightedScore(nodeInfo, podRequests, this.scorer === 'LeastAllocated');
      case 'RequestedToCapacityRatio':
        return this.requestedToCapacityRatio(nodeInfo, podRequests);
      case 'BalancedAllocation':
        return this.balanced(nodeInfo, podRequests);
    }
  }

  /** score for every node into out[n] (the strategy chosen once, not per node). */
  scoreNodes(nodes: readonly NodeInfo[], podRequests: readonly number[], out: Float64Array): Status | null {
    const N = nodes.length;
    if (N === 0) return null;
    if (this.resources.length === 0) return errorStatus('resources not found');
    switch (this.scorer) {
      case 'LeastAllocated':
        for (let n = 0; n < N; n++) out[n] = this.weightedScore(nodes[n]!, podRequests, true);
        break;
      case 'MostAllocated':
        for (let n = 0; n < N; n++) out[n] = this.weightedScore(nodes[n]!, podRequests, false);
        break;
      case 'RequestedToCapacityRatio':
        for (let n = 0; n < N; n++) out[n] = this.requestedToCapacityRatio(nodes[n]!, podRequests);
        break;
      case 'BalancedAllocation':
        for (let n = 0; n < N; n++) out[n] = this.balanced(nodes[n]!, podRequests);
        break;
    }
    return null;
  }

  /** leastResourceScorer / mostResourceScorer: the weighted mean of per-resource scores, truncated. */
  private weightedScore(nodeInfo: NodeInfo, podRequests: readonly number[], least: boolean): number {
    let nodeScore = 0;
    let weightSum = 0;
    for (let i = 0; i < this.resources.length; i++) {
      const pr = podRequests[i] ?? 0;
      const alloc = this.allocatable(i, nodeInfo, pr);
      if (alloc === 0) continue;
      const req = this.requested(i, nodeInfo, pr);
      const weight = this.resources[i]!.weight;
      nodeScore += (least ? leastRequestedScore(req, alloc) : mostRequestedScore(req, alloc)) * weight;
      weightSum += weight;
    }
    if (weightSum === 0) return 0;
    return Math.trunc(nodeScore / weightSum);
  }

  /**
   * buildRequestedToCapacityRatioScorerFunction: the shape at each resource's
   * utilization (full when over capacity); resources scoring 0 carry no
   * weight; the weighted mean is rounded (math.Round, half away from zero).
   */
  private requestedToCapacityRatio(nodeInfo: NodeInfo, podRequests: readonly number[]): number {
    let nodeScore = 0;
    let weightSum = 0;
    for (let i = 0; i < this.resources.length; i++) {
      const pr = podRequests[i] ?? 0;
      const alloc = this.allocatable(i, nodeInfo, pr);
      if (alloc === 0) continue;
      const req = this.requested(i, nodeInfo, pr);
      const utilization = req > alloc ? MAX_UTILIZATION : mulDivTrunc(req, MAX_UTILIZATION, alloc);
      const resourceScore = brokenLinear(this.shape, utilization);
      if (resourceScore > 0) {
        const weight = this.resources[i]!.weight;
        nodeScore += resourceScore * weight;
        weightSum += weight;
      }
    }
    if (weightSum === 0) return 0;
    // Non-negative, so JS's half-up rounding agrees with Go's half-away-from-zero.
    return Math.round(nodeScore / weightSum);
  }

  /**
   * balancedResourceScorer: (1 - std) * MaxNodeScore over the fractions
   * requested/allocatable (capped at 1); with two resources std = |f1 - f2| / 2.
   * Same float64 operations in the same order as upstream, so the same bits.
   */
  private balanced(nodeInfo: NodeInfo, podRequests: readonly number[]): number {
    let count = 0;
    let total = 0;
    let f0 = 0;
    let f1 = 0;
    for (let i = 0; i < this.resources.length; i++) {
      const f = this.fraction(i, nodeInfo, podRequests);
      if (Number.isNaN(f)) continue;
      total += f;
      if (count === 0) f0 = f;
      else if (count === 1) f1 = f;
      count++;
    }
    let std = 0;
    if (count === 2) {
      std = Math.abs((f0 - f1) / 2);
    } else if (count > 2) {
      const mean = total / count;
      let sum = 0;
      for (let i = 0; i < this.resources.length; i++) {
        const f = this.fraction(i, nodeInfo, podRequests);
        if (Number.isNaN(f)) continue;
        sum = sum + (f - mean) * (f - mean);
      }
      std = Math.sqrt(sum / count);
    }
    return Math.trunc((1 - std) * MAX_NODE_SCORE);
  }

  /** For the decision record: per resource, allocatable and the node's requests (without the pod's), at out[at + 2i]. */
  writeInputs(nodeInfo: NodeInfo, podRequests: readonly number[], out: Float64Array, at: number): void {
    for (let i = 0; i < this.resources.length; i++) {
      const pr = podRequests[i] ?? 0;
      const alloc = this.allocatable(i, nodeInfo, pr);
      out[at + 2 * i] = alloc;
      out[at + 2 * i + 1] = alloc === 0 ? 0 : this.requested(i, nodeInfo, pr) - pr;
    }
  }

  /** The recorded numbers as ScoreInputs: the resources that counted, with Fit's per-resource scores. */
  readInputs(podRequests: readonly number[], numbers: Float64Array, at: number): ScoreInputs {
    const resources: ResourceInput[] = [];
    for (let i = 0; i < this.resources.length; i++) {
      const alloc = numbers[at + 2 * i]!;
      if (alloc === 0) continue;
      const pr = podRequests[i] ?? 0;
      const nodeRequested = numbers[at + 2 * i + 1]!;
      const req = nodeRequested + pr;
      const r: ResourceInput = { name: this.resources[i]!.name, weight: this.resources[i]!.weight, nodeRequested, podRequest: pr, allocatable: alloc };
      if (this.scorer === 'LeastAllocated') r.score = leastRequestedScore(req, alloc);
      else if (this.scorer === 'MostAllocated') r.score = mostRequestedScore(req, alloc);
      else if (this.scorer === 'RequestedToCapacityRatio') r.score = brokenLinear(this.shape, req > alloc ? MAX_UTILIZATION : mulDivTrunc(req, MAX_UTILIZATION, alloc));
      resources.push(r);
    }
    return { kind: 'resources', scorer: this.scorer, resources };
  }

  /** requested/allocatable capped at 1, or NaN when the resource is skipped. */
  private fraction(i: number, nodeInfo: NodeInfo, podRequests: readonly number[]): number {
    const pr = podRequests[i] ?? 0;
    const alloc = this.allocatable(i, nodeInfo, pr);
    if (alloc === 0) return NaN;
    const f = this.requested(i, nodeInfo, pr) / alloc;
    return f > 1 ? 1 : f;
  }
}

/** The resource scorers' inputs for one cycle: two numbers per resource and node. */
export class ResourceInputsRecorder implements ScoreInputsRecorder {
  readonly width: number;

  constructor(
    readonly scorer: ResourceAllocationScorer,
    readonly podRequests: readonly number[],
  ) {
    this.width = 2 * scorer.resources.length;
  }

  write(_state: CycleState, _pod: Pod, nodeInfo: NodeInfo, out: Float64Array, at: number): void {
    this.scorer.writeInputs(nodeInfo, this.podRequests, out, at);
  }

  read(numbers: Float64Array, at: number): ScoreInputs {
    return this.scorer.readInputs(this.podRequests, numbers, at);
  }
}

registerClass('SchedulerResourceAllocationScorer', ResourceAllocationScorer);
registerClass('SchedulerResourceInputsRecorder', ResourceInputsRecorder);
