// The parts of core/v1 Pod and Node (and a few storage kinds) the scheduler
// reads, typed. Objects arrive as plain JSON from informers; these interfaces
// name the fields we use (k8s.io/api/core/v1/types.go) and nothing more.
import type { KObject } from '../../apimachinery/types';
import type { LabelSelector } from '../../apimachinery/selectors/labels';

export type ResourceList = Record<string, string | number>;

export interface ContainerPort {
  name?: string;
  containerPort: number;
  hostPort?: number;
  hostIP?: string;
  protocol?: string;
}

export interface Container {
  name: string;
  image?: string;
  resources?: { requests?: ResourceList; limits?: ResourceList };
  ports?: ContainerPort[];
  /** `Always` on an init container makes it a sidecar (restartable init container). */
  restartPolicy?: string;
}

export interface Toleration {
  key?: string;
  operator?: 'Exists' | 'Equal';
  value?: string;
  effect?: '' | 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  tolerationSeconds?: number;
}

export interface Taint {
  key: string;
  value?: string;
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  timeAdded?: string;
}

export interface NodeSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt';
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface NodeSelector {
  nodeSelectorTerms: NodeSelectorTerm[];
}

export interface PreferredSchedulingTerm {
  weight: number;
  preference: NodeSelectorTerm;
}

export interface PodAffinityTerm {
  labelSelector?: LabelSelector | null;
  namespaces?: string[];
  topologyKey: string;
  namespaceSelector?: LabelSelector | null;
  matchLabelKeys?: string[];
  mismatchLabelKeys?: string[];
}

export interface WeightedPodAffinityTerm {
  weight: number;
  podAffinityTerm: PodAffinityTerm;
}

export interface Affinity {
  nodeAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: NodeSelector;
    preferredDuringSchedulingIgnoredDuringExecution?: PreferredSchedulingTerm[];
  };
  podAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
    preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[];
  };
  podAntiAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
    preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTerm[];
  };
}

export interface TopologySpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway';
  labelSelector?: LabelSelector | null;
  minDomains?: number;
  nodeAffinityPolicy?: 'Honor' | 'Ignore';
  nodeTaintsPolicy?: 'Honor' | 'Ignore';
  matchLabelKeys?: string[];
}

export interface Volume {
  name: string;
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
  ephemeral?: { volumeClaimTemplate?: unknown };
  gcePersistentDisk?: { pdName: string; readOnly?: boolean };
  awsElasticBlockStore?: { volumeID: string; readOnly?: boolean };
  iscsi?: { targetPortal: string; iqn: string; lun: number; readOnly?: boolean };
  rbd?: { monitors: string[]; pool?: string; image: string; readOnly?: boolean };
  csi?: { driver: string };
  [other: string]: unknown;
}

export interface PodSpec {
  nodeName?: string;
  nodeSelector?: Record<string, string>;
  affinity?: Affinity;
  tolerations?: Toleration[];
  containers: Container[];
  initContainers?: Container[];
  overhead?: ResourceList;
  priority?: number;
  priorityClassName?: string;
  preemptionPolicy?: 'PreemptLowerPriority' | 'Never';
  schedulerName?: string;
  schedulingGates?: { name: string }[];
  topologySpreadConstraints?: TopologySpreadConstraint[];
  volumes?: Volume[];
  hostNetwork?: boolean;
  terminationGracePeriodSeconds?: number;
}

export interface PodCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
}

export interface PodStatus {
  phase?: string;
  conditions?: PodCondition[];
  nominatedNodeName?: string;
  startTime?: string;
}

export interface Pod extends KObject {
  spec: PodSpec;
  status?: PodStatus;
}

export interface NodeSpec {
  unschedulable?: boolean;
  taints?: Taint[];
  podCIDR?: string;
}

export interface ContainerImage {
  names?: string[];
  sizeBytes?: number;
}

export interface NodeStatus {
  capacity?: ResourceList;
  allocatable?: ResourceList;
  images?: ContainerImage[];
  conditions?: { type: string; status: string }[];
}

export interface Node extends KObject {
  spec?: NodeSpec;
  status?: NodeStatus;
}

export function podKey(pod: KObject): string {
  return `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
}

/** corev1helpers.PodPriority: spec.priority, 0 when unset. */
export function podPriority(pod: Pod): number {
  return pod.spec.priority ?? 0;
}

export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';
