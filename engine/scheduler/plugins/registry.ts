// NewInTreeRegistry (pkg/scheduler/framework/plugins/registry.go): every
// in-tree plugin by name. A profile may enable any of them.
import type { PluginDefinition } from '../framework/interface';
import { defaultBinderDefinition } from './defaultBinder';
import { defaultPreemptionDefinition } from './defaultPreemption';
import { imageLocalityDefinition } from './imageLocality';
import { interPodAffinityDefinition } from './interPodAffinity';
import { nodeAffinityDefinition } from './nodeAffinity';
import { nodeNameDefinition } from './nodeName';
import { nodePortsDefinition } from './nodePorts';
import { nodeResourcesBalancedAllocationDefinition } from './nodeResourcesBalancedAllocation';
import { nodeResourcesFitDefinition } from './nodeResourcesFit';
import { nodeUnschedulableDefinition } from './nodeUnschedulable';
import { nodeVolumeLimitsDefinition } from './nodeVolumeLimits';
import { podTopologySpreadDefinition } from './podTopologySpread';
import { prioritySortDefinition } from './prioritySort';
import { schedulingGatesDefinition } from './schedulingGates';
import { taintTolerationDefinition } from './taintToleration';
import { volumeBindingDefinition } from './volumeBinding';
import { volumeRestrictionsDefinition } from './volumeRestrictions';
import { volumeZoneDefinition } from './volumeZone';

const DEFINITIONS: PluginDefinition<never>[] = [
  prioritySortDefinition,
  schedulingGatesDefinition,
  nodeUnschedulableDefinition,
  nodeNameDefinition,
  taintTolerationDefinition,
  nodeAffinityDefinition,
  nodePortsDefinition,
  nodeResourcesFitDefinition,
  volumeRestrictionsDefinition,
  nodeVolumeLimitsDefinition,
  volumeBindingDefinition,
  volumeZoneDefinition,
  podTopologySpreadDefinition,
  interPodAffinityDefinition,
  defaultPreemptionDefinition,
  nodeResourcesBalancedAllocationDefinition,
  imageLocalityDefinition,
  defaultBinderDefinition,
] as PluginDefinition<never>[];

export const IN_TREE_REGISTRY: ReadonlyMap<string, PluginDefinition> = new Map(DEFINITIONS.map((d) => [d.name, d as PluginDefinition]));
