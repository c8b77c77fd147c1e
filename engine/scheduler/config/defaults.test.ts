import { describe, expect, it } from 'vitest';
import { registeredArgsKinds } from './codec';
import { getDefaultPlugins, mergePlugins, setDefaults } from './defaults';
import { fakeRegistry } from './fakeRegistry';
import type { KubeSchedulerConfiguration, Plugins } from './types';

const { registry } = fakeRegistry();
const kinds = registeredArgsKinds([]);
const defaulted = (c: KubeSchedulerConfiguration) => setDefaults(c, registry, kinds);

// pluginConfigs in upstream defaults_test.go, minus v1.32's gated-off DynamicResources.
const DEFAULT_PLUGIN_CONFIG = [
  { name: 'DefaultPreemption', args: { minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100 } },
  { name: 'InterPodAffinity', args: { hardPodAffinityWeight: 1, ignorePreferredTermsOfExistingPods: false } },
  { name: 'NodeAffinity', args: {} },
  { name: 'NodeResourcesBalancedAllocation', args: { resources: [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }] } },
  { name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'LeastAllocated', resources: [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }] } } },
  { name: 'PodTopologySpread', args: { defaultingType: 'System' } },
  { name: 'VolumeBinding', args: { bindTimeoutSeconds: 600 } },
];

const DEFAULT_TOP = {
  apiVersion: 'kubescheduler.config.k8s.io/v1',
  kind: 'KubeSchedulerConfiguration',
  parallelism: 16,
  enableProfiling: true,
  enableContentionProfiling: true,
  leaderElection: {
    leaderElect: true,
    leaseDuration: '15s',
    renewDeadline: '10s',
    retryPeriod: '2s',
    resourceLock: 'leases',
    resourceNamespace: 'kube-system',
    resourceName: 'kube-scheduler',
  },
  clientConnection: { kubeconfig: '', acceptContentTypes: '', qps: 50, burst: 100, contentType: 'application/vnd.kubernetes.protobuf' },
  percentageOfNodesToScore: 0,
  podInitialBackoffSeconds: 1,
  podMaxBackoffSeconds: 10,
};

describe('getDefaultPlugins (v1.32 default_plugins.go)', () => {
  it('is one MultiPoint list, in order, with the score weights', () => {
    const p = getDefaultPlugins();
    expect(Object.keys(p)).toEqual(['multiPoint']);
    expect(p.multiPoint!.enabled!.map((x) => (x.weight === undefined ? x.name : `${x.name}=${x.weight}`))).toEqual([
      'SchedulingGates',
      'PrioritySort',
      'NodeUnschedulable',
      'NodeName',
      'TaintToleration=3',
      'NodeAffinity=2',
      'NodePorts',
      'NodeResourcesFit=1',
      'VolumeRestrictions',
      'NodeVolumeLimits',
      'VolumeBinding',
      'VolumeZone',
      'PodTopologySpread=2',
      'InterPodAffinity=2',
      'DefaultPreemption',
      'NodeResourcesBalancedAllocation=1',
      'ImageLocality=1',
      'DefaultBinder',
    ]);
  });
});

describe('mergePlugins (TestMergePlugins)', () => {
  const filter = (...names: (string | [string, number])[]) => names.map((n) => (typeof n === 'string' ? { name: n } : { name: n[0], weight: n[1] }));
  const cases: { name: string; custom: Plugins | undefined; defaults: Plugins; want: Plugins }[] = [
    {
      name: 'AppendCustomPlugin',
      custom: { filter: { enabled: filter('CustomPlugin') } },
      defaults: { filter: { enabled: filter('DefaultPlugin1', 'DefaultPlugin2') } },
      want: { filter: { enabled: filter('DefaultPlugin1', 'DefaultPlugin2', 'CustomPlugin') } },
    },
    {
      name: 'InsertAfterDefaultPlugins2',
      custom: { filter: { enabled: filter('CustomPlugin', 'DefaultPlugin2'), disabled: filter('DefaultPlugin2') } },
      defaults: { filter: { enabled: filter('DefaultPlugin1', 'DefaultPlugin2') } },
      want: { filter: { enabled: filter('DefaultPlugin1', 'CustomPlugin', 'DefaultPlugin2'), disabled: filter('DefaultPlugin2') } },
    },
    {
      name: 'InsertBeforeAllPlugins',
      custom: { filter: { enabled: filter('CustomPlugin', 'DefaultPlugin1', 'DefaultPlugin2'), disabled: filter('*') } },
      defaults: { filter: { enabled: filter('DefaultPlugin1', 'DefaultPlugin2') } },
      want: { filter: { enabled: filter('CustomPlugin', 'DefaultPlugin1', 'DefaultPlugin2'), disabled: filter('*') } },
    },
    {
      name: 'ReorderDefaultPlugins',
      custom: { filter: { enabled: filter('DefaultPlugin2', 'DefaultPlugin1'), disabled: filter('*') } },
      defaults: { filter: { enabled: filter('DefaultPlugin1', 'DefaultPlugin2') } },
      want: { filter: { enabled: filter('DefaultPlugin2', 'DefaultPlugin1'), disabled: filter('*') } },
    },
    {
      name: 'ApplyNilCustomPlugin',
      custom: undefined,
      defaults: { filter: { enabled: filter('DefaultPlugin1', 'DefaultPlugin2') } },
      want: { filter: { enabled: filter('DefaultPlugin1', 'DefaultPlugin2') } },
    },
    {
      name: 'CustomPluginOverrideDefaultPlugin',
      custom: { filter: { enabled: filter(['Plugin1', 2], ['Plugin3', 3]) } },
      defaults: { filter: { enabled: filter('Plugin1', 'Plugin2', 'Plugin3') } },
      want: { filter: { enabled: filter(['Plugin1', 2], 'Plugin2', ['Plugin3', 3]) } },
    },
    {
      name: 'OrderPreserveAfterOverride',
      custom: { filter: { enabled: filter(['Plugin2', 2], ['Plugin1', 1]) } },
      defaults: { filter: { enabled: filter('Plugin1', 'Plugin2', 'Plugin3') } },
      want: { filter: { enabled: filter(['Plugin1', 1], ['Plugin2', 2], 'Plugin3') } },
    },
    {
      name: 'RepeatedCustomPlugin',
      custom: { filter: { enabled: filter('Plugin1', ['Plugin2', 2], 'Plugin3', ['Plugin2', 4]) } },
      defaults: { filter: { enabled: filter('Plugin1', 'Plugin2', 'Plugin3') } },
      want: { filter: { enabled: filter('Plugin1', ['Plugin2', 4], 'Plugin3', ['Plugin2', 2]) } },
    },
    {
      name: 'Append custom MultiPoint plugin',
      custom: { multiPoint: { enabled: filter('CustomPlugin') } },
      defaults: { multiPoint: { enabled: filter('DefaultPlugin1', 'DefaultPlugin2') } },
      want: { multiPoint: { enabled: filter('DefaultPlugin1', 'DefaultPlugin2', 'CustomPlugin') } },
    },
    {
      name: 'Append disabled Multipoint plugins',
      custom: { multiPoint: { enabled: filter('CustomPlugin', 'CustomPlugin2'), disabled: filter('DefaultPlugin2') }, score: { disabled: filter('CustomPlugin2') } },
      defaults: { multiPoint: { enabled: filter('DefaultPlugin1', 'DefaultPlugin2') } },
      want: { multiPoint: { enabled: filter('DefaultPlugin1', 'CustomPlugin', 'CustomPlugin2'), disabled: filter('DefaultPlugin2') }, score: { disabled: filter('CustomPlugin2') } },
    },
    {
      name: 'override default MultiPoint plugins with custom value',
      custom: { multiPoint: { enabled: filter(['DefaultPlugin', 5]) } },
      defaults: { multiPoint: { enabled: filter('DefaultPlugin') } },
      want: { multiPoint: { enabled: filter(['DefaultPlugin', 5]) } },
    },
    {
      name: 'disabled MultiPoint plugin in default set',
      custom: { multiPoint: { enabled: filter('CustomPlugin') } },
      defaults: { multiPoint: { enabled: filter('DefaultPlugin'), disabled: filter('DefaultPlugin2') } },
      want: { multiPoint: { enabled: filter('DefaultPlugin', 'CustomPlugin'), disabled: filter('DefaultPlugin2') } },
    },
    {
      name: 'disabled MultiPoint plugin in default set for specific extension point',
      custom: { multiPoint: { enabled: filter('CustomPlugin') } },
      defaults: { multiPoint: { enabled: filter('DefaultPlugin') }, score: { disabled: filter('DefaultPlugin2') } },
      want: { multiPoint: { enabled: filter('DefaultPlugin', 'CustomPlugin') }, score: { disabled: filter('DefaultPlugin2') } },
    },
    {
      name: 'multipoint with only disabled gets merged',
      custom: { multiPoint: { disabled: filter('DefaultPlugin') } },
      defaults: { multiPoint: { enabled: filter('DefaultPlugin') } },
      want: { multiPoint: { disabled: filter('DefaultPlugin') } },
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      expect(mergePlugins(c.defaults, c.custom)).toEqual(c.want);
    });
  }
});

describe('SetDefaults_KubeSchedulerConfiguration (TestSchedulerDefaults)', () => {
  it('empty config: one default-scheduler profile, defaults everywhere, args for every plugin with a kind (sorted)', () => {
    expect(defaulted({})).toEqual({
      ...DEFAULT_TOP,
      profiles: [{ schedulerName: 'default-scheduler', plugins: getDefaultPlugins(), pluginConfig: DEFAULT_PLUGIN_CONFIG }],
    });
  });

  it('no scheduler name: the single profile gets default-scheduler', () => {
    expect(defaulted({ profiles: [{}] }).profiles[0]!.schedulerName).toBe('default-scheduler');
  });

  it('two profiles: no default name, configs kept first, custom bind merged with the defaults', () => {
    const got = defaulted({
      parallelism: 16,
      profiles: [{ pluginConfig: [{ name: 'FooPlugin' }] }, { schedulerName: 'custom-scheduler', plugins: { bind: { enabled: [{ name: 'BarPlugin' }], disabled: [{ name: 'DefaultBinder' }] } } }],
    });
    expect(got.profiles[0]).toEqual({ plugins: getDefaultPlugins(), pluginConfig: [{ name: 'FooPlugin' }, ...DEFAULT_PLUGIN_CONFIG] });
    expect(got.profiles[1]).toEqual({
      schedulerName: 'custom-scheduler',
      plugins: { ...getDefaultPlugins(), bind: { enabled: [{ name: 'BarPlugin' }], disabled: [{ name: 'DefaultBinder' }] } },
      pluginConfig: DEFAULT_PLUGIN_CONFIG,
    });
  });

  it('keeps set values: parallelism, backoffs, percentage, profiling off (then no contention default)', () => {
    const got = defaulted({ parallelism: 8, podInitialBackoffSeconds: 2, podMaxBackoffSeconds: 20, percentageOfNodesToScore: 50, enableProfiling: false });
    expect(got).toMatchObject({ parallelism: 8, podInitialBackoffSeconds: 2, podMaxBackoffSeconds: 20, percentageOfNodesToScore: 50, enableProfiling: false });
    expect(got.enableContentionProfiling).toBeUndefined();
  });

  it('leader election: zero durations count as unset; set values and leaderElect=false stay', () => {
    const got = defaulted({ leaderElection: { leaderElect: false, leaseDuration: '0s', renewDeadline: '30s', resourceLock: 'endpointsleases' } });
    expect(got.leaderElection).toEqual({
      leaderElect: false,
      leaseDuration: '15s',
      renewDeadline: '30s',
      retryPeriod: '2s',
      resourceLock: 'endpointsleases',
      resourceNamespace: 'kube-system',
      resourceName: 'kube-scheduler',
    });
  });

  it('client connection: qps/burst 0 take the scheduler defaults, set ones stay', () => {
    expect(defaulted({ clientConnection: { qps: 0, burst: 7, kubeconfig: '/etc/kubernetes/scheduler.conf' } }).clientConnection).toEqual({
      kubeconfig: '/etc/kubernetes/scheduler.conf',
      acceptContentTypes: '',
      contentType: 'application/vnd.kubernetes.protobuf',
      qps: 50,
      burst: 7,
    });
  });

  it("user args are defaulted through the registry; unknown plugins' raw args are left alone", () => {
    const got = defaulted({
      profiles: [{ pluginConfig: [{ name: 'DefaultPreemption', args: { minCandidateNodesPercentage: 50 } }, { name: 'Custom', args: { anything: [1] } }] }],
    });
    expect(got.profiles[0]!.pluginConfig.slice(0, 2)).toEqual([
      { name: 'DefaultPreemption', args: { minCandidateNodesPercentage: 50, minCandidateNodesAbsolute: 100 } },
      { name: 'Custom', args: { anything: [1] } },
    ]);
    // DefaultPreemption is configured already: not appended again.
    expect(got.profiles[0]!.pluginConfig.filter((c) => c.name === 'DefaultPreemption')).toHaveLength(1);
  });

  it('disabling every default ("*") leaves no defaults, and no default args for plugins not enabled', () => {
    const got = defaulted({ profiles: [{ plugins: { multiPoint: { enabled: [{ name: 'PrioritySort' }, { name: 'DefaultBinder' }, { name: 'ImageLocality', weight: 4 }], disabled: [{ name: '*' }] } } }] });
    expect(got.profiles[0]!.plugins).toEqual({
      multiPoint: { enabled: [{ name: 'PrioritySort' }, { name: 'DefaultBinder' }, { name: 'ImageLocality', weight: 4 }], disabled: [{ name: '*' }] },
    });
    expect(got.profiles[0]!.pluginConfig).toEqual([]);
  });

  it('does not modify its input', () => {
    const input: KubeSchedulerConfiguration = { profiles: [{ plugins: { score: { disabled: [{ name: 'ImageLocality' }] } } }] };
    const before = JSON.stringify(input);
    defaulted(input);
    expect(JSON.stringify(input)).toBe(before);
  });
});
