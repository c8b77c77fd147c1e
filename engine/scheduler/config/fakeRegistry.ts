// Test helper: a registry shaped like v1.32's in-tree one (names, extension
// points, args kinds and their v1 defaults), with stand-in plugins. The real
// plugin modules live in ../plugins; the config code only needs this much.
import { fieldErr, type FieldError, type FieldPath } from '../../apimachinery/fieldErrors';
import type { PluginDefinition } from '../framework/interface';
import type { ExtensionPoint, ImplementsPoint } from './types';

type Args = Record<string, unknown>;

const POINTS: Record<string, ExtensionPoint[]> = {
  SchedulingGates: ['preEnqueue'],
  PrioritySort: ['queueSort'],
  NodeUnschedulable: ['filter'],
  NodeName: ['filter'],
  TaintToleration: ['filter', 'preScore', 'score'],
  NodeAffinity: ['preFilter', 'filter', 'preScore', 'score'],
  NodePorts: ['preFilter', 'filter'],
  NodeResourcesFit: ['preFilter', 'filter', 'preScore', 'score'],
  VolumeRestrictions: ['preFilter', 'filter'],
  NodeVolumeLimits: ['preFilter', 'filter'],
  VolumeBinding: ['preFilter', 'filter', 'reserve', 'preBind', 'preScore', 'score'],
  VolumeZone: ['preFilter', 'filter'],
  PodTopologySpread: ['preFilter', 'filter', 'preScore', 'score'],
  InterPodAffinity: ['preFilter', 'filter', 'preScore', 'score'],
  DefaultPreemption: ['postFilter'],
  NodeResourcesBalancedAllocation: ['preScore', 'score'],
  ImageLocality: ['score'],
  DefaultBinder: ['bind'],
};

const cpuMem = () => [
  { name: 'cpu', weight: 1 },
  { name: 'memory', weight: 1 },
];

/** v1 SetDefaults_*Args (defaults.go), reduced to what tests look at. */
const ARGS: Record<string, { kind: string; defaults: (a: Args) => Args; validate?: (a: Args, p: FieldPath) => FieldError[] }> = {
  DefaultPreemption: {
    kind: 'DefaultPreemptionArgs',
    defaults: (a) => ({ ...a, minCandidateNodesPercentage: a.minCandidateNodesPercentage ?? 10, minCandidateNodesAbsolute: a.minCandidateNodesAbsolute ?? 100 }),
    validate: (a, p) => {
      const errs: FieldError[] = [];
      const pct = a.minCandidateNodesPercentage as number;
      const abs = a.minCandidateNodesAbsolute as number;
      if (pct < 0 || pct > 100) errs.push(fieldErr.invalid(p.child('minCandidateNodesPercentage'), pct, 'not in valid range [0, 100]'));
      if (abs < 0) errs.push(fieldErr.invalid(p.child('minCandidateNodesAbsolute'), abs, 'not in valid range [0, inf)'));
      return errs;
    },
  },
  InterPodAffinity: { kind: 'InterPodAffinityArgs', defaults: (a) => ({ ...a, hardPodAffinityWeight: a.hardPodAffinityWeight ?? 1 }) },
  NodeAffinity: { kind: 'NodeAffinityArgs', defaults: (a) => ({ ...a }) },
  NodeResourcesBalancedAllocation: { kind: 'NodeResourcesBalancedAllocationArgs', defaults: (a) => ({ ...a, resources: a.resources ?? cpuMem() }) },
  NodeResourcesFit: {
    kind: 'NodeResourcesFitArgs',
    defaults: (a) => ({ ...a, scoringStrategy: a.scoringStrategy ?? { type: 'LeastAllocated', resources: cpuMem() } }),
    validate: (a, p) => {
      const res = ((a.scoringStrategy as Args | undefined)?.resources ?? []) as { name: string; weight: number }[];
      return res.flatMap((r, i) =>
        r.weight < 1 || r.weight > 100
          ? [fieldErr.invalid(p.child('scoringStrategy', 'resources').index(i).child('weight'), r.weight, `resource weight of ${r.name} should be in range [1, 100]`)]
          : [],
      );
    },
  },
  PodTopologySpread: { kind: 'PodTopologySpreadArgs', defaults: (a) => ({ ...a, defaultingType: a.defaultingType ?? 'System' }) },
  VolumeBinding: { kind: 'VolumeBindingArgs', defaults: (a) => ({ ...a, bindTimeoutSeconds: a.bindTimeoutSeconds ?? 600 }) },
};

function definition(name: string): PluginDefinition {
  const a = ARGS[name];
  const def: PluginDefinition<Args> = { name, factory: () => ({ name }) };
  if (a) {
    def.argsKind = a.kind;
    def.defaultArgs = (x) => a.defaults({ ...x });
    if (a.validate) def.validateArgs = a.validate;
  }
  return def as PluginDefinition;
}

/** The in-tree plugins, in a fixed order. `extra` adds plugins with the given points. */
export function fakeRegistry(extra: Record<string, ExtensionPoint[]> = {}): { registry: Map<string, PluginDefinition>; implementsPoint: ImplementsPoint } {
  const points = { ...POINTS, ...extra };
  const registry = new Map<string, PluginDefinition>(Object.keys(points).map((n) => [n, definition(n)]));
  return { registry, implementsPoint: (n, p) => (points[n] ?? []).includes(p) };
}
