import { describe, expect, it } from 'vitest';
import { cloneState } from '../../sim/serial';
import { fakeRegistry } from './fakeRegistry';
import { defaultConfig, durationMs, loadConfig, writeConfig, type LoadResult } from './index';

const { registry, implementsPoint } = fakeRegistry({ CustomSort: ['queueSort'] });
const HEAD = 'apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n';
const load = (text: string) => loadConfig(text, registry, implementsPoint);
const error = (r: LoadResult) => (r.ok ? 'ok' : r.error);
const names = (l: { name: string; weight: number }[]) => l.map((x) => (x.weight ? `${x.name}=${x.weight}` : x.name));

// What `kube-scheduler --write-config-to` prints for v1.32 with no --config.
const DEFAULT_YAML = `apiVersion: kubescheduler.config.k8s.io/v1
clientConnection:
  acceptContentTypes: ""
  burst: 100
  contentType: application/vnd.kubernetes.protobuf
  kubeconfig: ""
  qps: 50
enableContentionProfiling: true
enableProfiling: true
kind: KubeSchedulerConfiguration
leaderElection:
  leaderElect: true
  leaseDuration: 15s
  renewDeadline: 10s
  resourceLock: leases
  resourceName: kube-scheduler
  resourceNamespace: kube-system
  retryPeriod: 2s
parallelism: 16
percentageOfNodesToScore: 0
podInitialBackoffSeconds: 1
podMaxBackoffSeconds: 10
profiles:
- pluginConfig:
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: DefaultPreemptionArgs
      minCandidateNodesAbsolute: 100
      minCandidateNodesPercentage: 10
    name: DefaultPreemption
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      hardPodAffinityWeight: 1
      ignorePreferredTermsOfExistingPods: false
      kind: InterPodAffinityArgs
    name: InterPodAffinity
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: NodeAffinityArgs
    name: NodeAffinity
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: NodeResourcesBalancedAllocationArgs
      resources:
      - name: cpu
        weight: 1
      - name: memory
        weight: 1
    name: NodeResourcesBalancedAllocation
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      kind: NodeResourcesFitArgs
      scoringStrategy:
        resources:
        - name: cpu
          weight: 1
        - name: memory
          weight: 1
        type: LeastAllocated
    name: NodeResourcesFit
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      defaultingType: System
      kind: PodTopologySpreadArgs
    name: PodTopologySpread
  - args:
      apiVersion: kubescheduler.config.k8s.io/v1
      bindTimeoutSeconds: 600
      kind: VolumeBindingArgs
    name: VolumeBinding
  plugins:
    bind: {}
    filter: {}
    multiPoint:
      enabled:
${[
  ['SchedulingGates', 0],
  ['PrioritySort', 0],
  ['NodeUnschedulable', 0],
  ['NodeName', 0],
  ['TaintToleration', 3],
  ['NodeAffinity', 2],
  ['NodePorts', 0],
  ['NodeResourcesFit', 1],
  ['VolumeRestrictions', 0],
  ['NodeVolumeLimits', 0],
  ['VolumeBinding', 0],
  ['VolumeZone', 0],
  ['PodTopologySpread', 2],
  ['InterPodAffinity', 2],
  ['DefaultPreemption', 0],
  ['NodeResourcesBalancedAllocation', 1],
  ['ImageLocality', 1],
  ['DefaultBinder', 0],
]
  .map(([n, w]) => `      - name: ${n}\n        weight: ${w}\n`)
  .join('')}    permit: {}
    postBind: {}
    postFilter: {}
    preBind: {}
    preEnqueue: {}
    preFilter: {}
    preScore: {}
    queueSort: {}
    reserve: {}
    score: {}
  schedulerName: default-scheduler
`;

describe('defaultConfig', () => {
  const d = defaultConfig(registry, implementsPoint);

  it('--write-config-to output equals the v1.32 default configuration', () => {
    expect(writeConfig(d, registry)).toBe(DEFAULT_YAML);
  });

  it('the default profile, point by point, as the framework orders it', () => {
    const p = d.profiles[0]!;
    expect(p.schedulerName).toBe('default-scheduler');
    expect(p.percentageOfNodesToScore).toBeUndefined();
    expect(names(p.points.preEnqueue)).toEqual(['SchedulingGates']);
    expect(names(p.points.queueSort)).toEqual(['PrioritySort']);
    expect(names(p.points.preFilter)).toEqual(['NodeAffinity', 'NodePorts', 'NodeResourcesFit', 'VolumeRestrictions', 'NodeVolumeLimits', 'VolumeBinding', 'VolumeZone', 'PodTopologySpread', 'InterPodAffinity']);
    expect(names(p.points.filter)).toEqual([
      'NodeUnschedulable',
      'NodeName',
      'TaintToleration',
      'NodeAffinity',
      'NodePorts',
      'NodeResourcesFit',
      'VolumeRestrictions',
      'NodeVolumeLimits',
      'VolumeBinding',
      'VolumeZone',
      'PodTopologySpread',
      'InterPodAffinity',
    ]);
    expect(names(p.points.postFilter)).toEqual(['DefaultPreemption']);
    expect(names(p.points.preScore)).toEqual(['TaintToleration', 'NodeAffinity', 'NodeResourcesFit', 'VolumeBinding', 'PodTopologySpread', 'InterPodAffinity', 'NodeResourcesBalancedAllocation']);
    expect(names(p.points.score)).toEqual([
      'TaintToleration=3',
      'NodeAffinity=2',
      'NodeResourcesFit=1',
      'VolumeBinding=1',
      'PodTopologySpread=2',
      'InterPodAffinity=2',
      'NodeResourcesBalancedAllocation=1',
      'ImageLocality=1',
    ]);
    expect(names(p.points.reserve)).toEqual(['VolumeBinding']);
    expect(names(p.points.preBind)).toEqual(['VolumeBinding']);
    expect(names(p.points.bind)).toEqual(['DefaultBinder']);
    expect(p.points.permit).toEqual([]);
    expect(p.points.postBind).toEqual([]);
    expect([...p.args.keys()].sort()).toEqual(['DefaultPreemption', 'InterPodAffinity', 'NodeAffinity', 'NodeResourcesBalancedAllocation', 'NodeResourcesFit', 'PodTopologySpread', 'VolumeBinding']);
    expect(durationMs(d.config.leaderElection.leaseDuration)).toBe(15_000);
  });

  it('is plain data: a snapshot clone is equal and independent', () => {
    const c = cloneState(d);
    expect(c).toEqual(d);
    c.profiles[0]!.points.score[0]!.weight = 99;
    expect(d.profiles[0]!.points.score[0]!.weight).toBe(3);
  });
});

describe('loadConfig', () => {
  it('a typical file: kubeconfig, a score weight changed, a plugin disabled, a second profile', () => {
    const r = load(`${HEAD}clientConnection:
  kubeconfig: /etc/kubernetes/scheduler.conf
leaderElection:
  leaderElect: false
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      enabled:
      - name: NodeResourcesBalancedAllocation
        weight: 5
      disabled:
      - name: ImageLocality
- schedulerName: no-spread
  percentageOfNodesToScore: 20
  plugins:
    multiPoint:
      disabled:
      - name: PodTopologySpread
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
`);
    if (!r.ok) throw new Error(r.error);
    expect(r.config.clientConnection.kubeconfig).toBe('/etc/kubernetes/scheduler.conf');
    const [a, b] = r.profiles;
    expect(names(a!.points.score)).toEqual(['NodeResourcesBalancedAllocation=5', 'TaintToleration=3', 'NodeAffinity=2', 'NodeResourcesFit=1', 'VolumeBinding=1', 'PodTopologySpread=2', 'InterPodAffinity=2']);
    expect(b!.schedulerName).toBe('no-spread');
    expect(b!.percentageOfNodesToScore).toBe(20);
    expect(names(b!.points.filter)).not.toContain('PodTopologySpread');
    expect(names(b!.points.score)).toContain('ImageLocality=1');
    // the registry's defaults fill what the user left out
    expect(b!.args.get('NodeResourcesFit')).toEqual({ scoringStrategy: { type: 'MostAllocated' } });
    expect(b!.args.has('PodTopologySpread')).toBe(false);
  });

  it("validation errors come aggregated, in upstream's order", () => {
    expect(error(load(`${HEAD}parallelism: 0\nprofiles:\n- {}\n- {}\n`))).toBe(
      '[parallelism: Invalid value: 0: should be an integer value greater than zero, profiles[0].schedulerName: Required value, profiles[1].schedulerName: Required value, profiles[1].schedulerName: Duplicate value: field.Path{name:"schedulerName", index:"", parent:(*field.Path)(0xc000a1c0f0)}]',
    );
    expect(error(load(`${HEAD}profiles:\n- plugins:\n    filter:\n      enabled:\n      - name: EBSLimits\n`))).toBe(
      'profiles[0].plugins.filter.enabled[0]: Invalid value: "EBSLimits": was invalid in version "kubescheduler.config.k8s.io/v1" (KubeSchedulerConfiguration is version "kubescheduler.config.k8s.io/v1")',
    );
  });

  it('framework errors come wrapped as scheduler.New wraps them', () => {
    expect(error(load(`${HEAD}profiles:\n- plugins:\n    multiPoint:\n      enabled:\n      - name: Foo\n`))).toBe(
      'initializing profiles: creating profile for scheduler name default-scheduler: PreFilterPlugin "Foo" does not exist',
    );
    expect(error(load(`${HEAD}profiles:\n- plugins:\n    postBind:\n      enabled:\n      - name: NodePorts\n`))).toBe(
      'initializing profiles: creating profile for scheduler name default-scheduler: plugin "NodePorts" does not extend PostBindPlugin plugin',
    );
    expect(error(load(`${HEAD}profiles:\n- plugins:\n    bind:\n      disabled:\n      - name: '*'\n`))).toBe(
      'initializing profiles: creating profile for scheduler name default-scheduler: at least one bind plugin is needed for profile with scheduler name "default-scheduler"',
    );
    expect(error(load(`${HEAD}profiles:\n- plugins:\n    queueSort:\n      enabled:\n      - name: CustomSort\n`))).toBe(
      'initializing profiles: creating profile for scheduler name default-scheduler: only one queue sort plugin required for profile with scheduler name "default-scheduler", but got 2',
    );
    expect(error(load(`${HEAD}profiles:\n- pluginConfig:\n  - name: NodeResourcesFit\n    args:\n      scoringStrategy:\n        resources:\n        - {name: cpu, weight: 0}\n        - {name: memory, weight: 200}\n`))).toBe(
      'initializing profiles: creating profile for scheduler name default-scheduler: initializing plugin "NodeResourcesFit": scoringStrategy.resources[1].weight: Invalid value: 200: resource weight of memory should be in range [1, 100]',
    );
  });

  it('profiles must agree on the queue sort plugin the frameworks end up with', () => {
    const text = `${HEAD}profiles:
- schedulerName: a
- schedulerName: b
  plugins:
    multiPoint:
      enabled:
      - name: CustomSort
      disabled:
      - name: PrioritySort
`;
    expect(error(load(text))).toBe('initializing profiles: different queue sort plugins for profile "b": "CustomSort", first: "PrioritySort"');
  });

  it('decode errors pass through, with the position of a syntax error', () => {
    expect(load(`${HEAD}profiles:\n- schedulerName: a: b\n`)).toEqual({ ok: false, error: 'yaml: line 4: mapping values are not allowed in this context', position: { line: 4, column: 18 } });
    expect(error(load(`${HEAD}profile: []\n`))).toBe('strict decoding error: unknown field "profile"');
  });

  it('what --write-config-to writes loads back to the same profiles', () => {
    const first = load(`${HEAD}profiles:\n- schedulerName: x\n  plugins:\n    score:\n      disabled:\n      - name: '*'\n      enabled:\n      - name: ImageLocality\n        weight: 7\n`);
    if (!first.ok) throw new Error(first.error);
    const again = load(writeConfig(first, registry));
    if (!again.ok) throw new Error(again.error);
    expect(again.profiles).toEqual(first.profiles);
    expect(names(again.profiles[0]!.points.score)).toEqual(['ImageLocality=7']);
  });
});
