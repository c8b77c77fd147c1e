// What the scoring table's explanations need from the running
// KubeSchedulerConfiguration: per profile, NodeResourcesFit's scoring strategy
// and its resource weights, and BalancedAllocation's resources. Read leniently
// (the engine validates; this only describes), with upstream's defaults.
import { parse } from 'yaml';

export interface ResourceWeight {
  name: string;
  weight: number;
}

export type FitStrategy = 'LeastAllocated' | 'MostAllocated' | 'RequestedToCapacityRatio';

export interface ProfileScoring {
  fitStrategy: FitStrategy;
  fitResources: ResourceWeight[];
  /** RequestedToCapacityRatio's points (utilization %, score 0..10). */
  shape: { utilization: number; score: number }[];
  balancedResources: ResourceWeight[];
}

/** Upstream's defaults (pkg/scheduler/apis/config/v1/defaults.go): cpu and memory, weight 1, LeastAllocated. */
export function defaultScoring(): ProfileScoring {
  return {
    fitStrategy: 'LeastAllocated',
    fitResources: [
      { name: 'cpu', weight: 1 },
      { name: 'memory', weight: 1 },
    ],
    shape: [],
    balancedResources: [
      { name: 'cpu', weight: 1 },
      { name: 'memory', weight: 1 },
    ],
  };
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function resources(v: unknown, fallback: ResourceWeight[]): ResourceWeight[] {
  if (!Array.isArray(v) || v.length === 0) return fallback;
  const out: ResourceWeight[] = [];
  for (const r of v) {
    if (isObj(r) && typeof r.name === 'string') out.push({ name: r.name, weight: typeof r.weight === 'number' && r.weight > 0 ? r.weight : 1 });
  }
  return out.length > 0 ? out : fallback;
}

/** schedulerName → its scoring settings; profiles the text does not describe get the defaults. */
export function scoringByProfile(configText: string | null): Map<string, ProfileScoring> {
  const out = new Map<string, ProfileScoring>();
  if (!configText) return out;
  let doc: unknown;
  try {
    doc = parse(configText);
  } catch {
    return out;
  }
  if (!isObj(doc) || !Array.isArray(doc.profiles)) return out;
  for (const p of doc.profiles) {
    if (!isObj(p)) continue;
    const name = typeof p.schedulerName === 'string' ? p.schedulerName : 'default-scheduler';
    const s = defaultScoring();
    for (const pc of Array.isArray(p.pluginConfig) ? p.pluginConfig : []) {
      if (!isObj(pc) || !isObj(pc.args)) continue;
      if (pc.name === 'NodeResourcesFit' && isObj(pc.args.scoringStrategy)) {
        const st = pc.args.scoringStrategy;
        if (st.type === 'MostAllocated' || st.type === 'RequestedToCapacityRatio' || st.type === 'LeastAllocated') s.fitStrategy = st.type;
        s.fitResources = resources(st.resources, s.fitResources);
        const shape = isObj(st.requestedToCapacityRatio) ? st.requestedToCapacityRatio.shape : undefined;
        if (Array.isArray(shape)) {
          s.shape = shape.filter(isObj).map((pt) => ({ utilization: Number(pt.utilization ?? 0), score: Number(pt.score ?? 0) }));
        }
      } else if (pc.name === 'NodeResourcesBalancedAllocation') {
        s.balancedResources = resources(pc.args.resources, s.balancedResources);
      }
    }
    out.set(name, s);
  }
  return out;
}
