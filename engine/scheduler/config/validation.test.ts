import { describe, expect, it } from 'vitest';
import { registeredArgsKinds } from './codec';
import { setDefaults } from './defaults';
import { fakeRegistry } from './fakeRegistry';
import type { DefaultedConfig } from './types';
import { aggregate, validateKubeSchedulerConfiguration } from './validation';

const { registry } = fakeRegistry();

// validation_test.go's validConfig, as v1 input run through the defaults.
function validConfig(): DefaultedConfig {
  return setDefaults(
    {
      parallelism: 8,
      clientConnection: { acceptContentTypes: 'application/json', contentType: 'application/json', qps: 10, burst: 10 },
      leaderElection: { resourceLock: 'leases', leaderElect: true, leaseDuration: '30s', renewDeadline: '15s', retryPeriod: '5s', resourceNamespace: 'name', resourceName: 'name' },
      podInitialBackoffSeconds: 1,
      podMaxBackoffSeconds: 1,
      percentageOfNodesToScore: 35,
      profiles: [
        {
          schedulerName: 'me',
          plugins: { queueSort: { enabled: [{ name: 'CustomSort' }] }, score: { disabled: [{ name: '*' }] } },
          pluginConfig: [{ name: 'DefaultPreemption', args: { minCandidateNodesPercentage: 10, minCandidateNodesAbsolute: 100 } }],
        },
        { schedulerName: 'other', plugins: { queueSort: { enabled: [{ name: 'CustomSort' }] }, bind: { enabled: [{ name: 'CustomBind' }] } } },
      ],
      extenders: [{ prioritizeVerb: 'prioritize', weight: 1 }],
    },
    registry,
    registeredArgsKinds([]),
  );
}

const check = (c: DefaultedConfig) => aggregate(validateKubeSchedulerConfiguration(c, registry));

describe('ValidateKubeSchedulerConfiguration (TestValidateKubeSchedulerConfiguration)', () => {
  it('good', () => {
    expect(check(validConfig())).toBeUndefined();
  });

  const cases: [string, (c: DefaultedConfig) => void, string][] = [
    ['bad-parallelism-invalid-value', (c) => (c.parallelism = 0), 'parallelism: Invalid value: 0: should be an integer value greater than zero'],
    ['bad-resource-name-not-set', (c) => (c.leaderElection.resourceName = ''), 'leaderElection.resourceName: Invalid value: "": resourceName is required'],
    ['bad-resource-namespace-not-set', (c) => (c.leaderElection.resourceNamespace = ''), 'leaderElection.resourceNamespace: Invalid value: "": resourceNamespace is required'],
    ['bad-percentage-of-nodes-to-score', (c) => (c.percentageOfNodesToScore = 101), 'percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]'],
    ['bad-profile-percentage-of-nodes-to-score', (c) => (c.profiles[1]!.percentageOfNodesToScore = -1), 'profiles[1].percentageOfNodesToScore: Invalid value: -1: not in valid range [0-100]'],
    ['scheduler-name-not-set', (c) => delete c.profiles[1]!.schedulerName, 'profiles[1].schedulerName: Required value'],
    [
      'repeated-scheduler-name',
      (c) => (c.profiles[0]!.schedulerName = 'other'),
      'profiles[1].schedulerName: Duplicate value: field.Path{name:"schedulerName", index:"", parent:(*field.Path)(0xc000a1c0f0)}',
    ],
    [
      'different-queue-sort',
      (c) => (c.profiles[1]!.plugins.queueSort!.enabled![0]!.name = 'AnotherSort'),
      'profiles[1].plugins.queueSort: Invalid value: config.PluginSet{Enabled:[]config.Plugin{config.Plugin{Name:"AnotherSort", Weight:0}}, Disabled:[]config.Plugin(nil)}: must be the same for all profiles',
    ],
    [
      'one-empty-queue-sort',
      (c) => delete c.profiles[0]!.plugins.queueSort,
      'profiles[1].plugins.queueSort: Invalid value: config.PluginSet{Enabled:[]config.Plugin{config.Plugin{Name:"CustomSort", Weight:0}}, Disabled:[]config.Plugin(nil)}: must be the same for all profiles',
    ],
    ['extender-negative-weight', (c) => (c.extenders![0]!.weight = -1), 'extenders[0].weight: Invalid value: -1: must have a positive weight applied to it'],
    [
      'extender-duplicate-managed-resources',
      (c) => (c.extenders![0]!.managedResources = [{ name: 'example.com/foo' }, { name: 'example.com/foo' }]),
      'extenders[0].managedResources[1].name: Invalid value: "example.com/foo": duplicate extender managed resource name',
    ],
    [
      'extender-invalid-resource-name',
      (c) => (c.extenders![0]!.managedResources = [{ name: 'kubernetes.io/foo' }]),
      'extenders[0].managedResources[0].name: Invalid value: "kubernetes.io/foo": is an invalid extended resource name',
    ],
    [
      'extender-duplicate-bind',
      (c) => {
        c.extenders![0]!.bindVerb = 'foo';
        c.extenders!.push({ prioritizeVerb: 'prioritize', bindVerb: 'bar' });
      },
      '[extenders[1].weight: Invalid value: 0: must have a positive weight applied to it, extenders: Invalid value: "found 2 extenders implementing bind": only one extender can implement bind]',
    ],
    [
      'invalid-node-percentage (args through the registry)',
      (c) => (c.profiles[0]!.pluginConfig[0] = { name: 'DefaultPreemption', args: { minCandidateNodesPercentage: 200, minCandidateNodesAbsolute: 100 } }),
      'profiles[0].pluginConfig[0].args.minCandidateNodesPercentage: Invalid value: 200: not in valid range [0, 100]',
    ],
    ['duplicated-plugin-config', (c) => (c.profiles[0]!.pluginConfig = [{ name: 'config' }, { name: 'config' }]), 'profiles[0].pluginConfig[1]: Duplicate value: "config"'],
    [
      'mismatch-queue-sort (args)',
      (c) => {
        c.profiles[0]!.plugins.queueSort = { enabled: [{ name: 'PrioritySort' }] };
        c.profiles[1]!.plugins.queueSort = { enabled: [{ name: 'PrioritySort' }] };
        c.profiles[0]!.pluginConfig = [{ name: 'PrioritySort' }];
        c.profiles[1]!.pluginConfig = [{ name: 'PrioritySort', args: { a: 1 } }];
      },
      'profiles[1].pluginConfig.args: Invalid value: runtime.Unknown{TypeMeta:runtime.TypeMeta{APIVersion:"", Kind:""}, Raw:[]uint8{0x7b, 0x22, 0x61, 0x22, 0x3a, 0x31, 0x7d}, ContentEncoding:"", ContentType:""}: queueSort must be the same for all profiles',
    ],
    [
      'bad-removed-plugins (v1 invalid plugins, at a point and in pluginConfig)',
      (c) => {
        c.profiles[0]!.plugins.filter = { enabled: [{ name: 'NodeName' }, { name: 'EBSLimits' }] };
        c.profiles[0]!.pluginConfig.push({ name: 'GCEPDLimits' });
      },
      '[profiles[0].plugins.filter.enabled[1]: Invalid value: "EBSLimits": was invalid in version "kubescheduler.config.k8s.io/v1" (KubeSchedulerConfiguration is version "kubescheduler.config.k8s.io/v1"), profiles[0].pluginConfig[7]: Invalid value: "GCEPDLimits": was invalid in version "kubescheduler.config.k8s.io/v1" (KubeSchedulerConfiguration is version "kubescheduler.config.k8s.io/v1")]',
    ],
    ['bad-initial-backoff', (c) => (c.podInitialBackoffSeconds = 0), 'podInitialBackoffSeconds: Invalid value: 0: must be greater than 0'],
    ['bad-max-backoff', (c) => (c.podMaxBackoffSeconds = 0), 'podMaxBackoffSeconds: Invalid value: 0: must be greater than or equal to PodInitialBackoffSeconds'],
    ['negative-burst', (c) => (c.clientConnection.burst = -1), 'clientConnection.burst: Invalid value: -1: must be non-negative'],
    ['resource-lock-not-leases', (c) => (c.leaderElection.resourceLock = 'endpoints'), 'leaderElection.resourceLock: Invalid value: "endpoints": resourceLock value must be "leases"'],
    [
      'lease-not-above-renew (the bad value printed is RenewDeadline, as a Go duration)',
      (c) => (c.leaderElection.leaseDuration = '10s'),
      'leaderElection.leaseDuration: Invalid value: 15s: LeaseDuration must be greater than RenewDeadline',
    ],
    [
      'negative-retry-period',
      (c) => (c.leaderElection.retryPeriod = '-1m30s'),
      'leaderElection.retryPeriod: Invalid value: -1m30s: must be greater than zero',
    ],
  ];
  for (const [name, mutate, want] of cases) {
    it(name, () => {
      const c = validConfig();
      mutate(c);
      expect(check(c)).toBe(want);
    });
  }

  it('leader election off: its fields are not checked', () => {
    const c = validConfig();
    c.leaderElection.leaderElect = false;
    c.leaderElection.resourceLock = 'endpoints';
    c.leaderElection.leaseDuration = '1s';
    expect(check(c)).toBeUndefined();
  });

  it('aggregates several errors as "[a, b]" and collapses repeats', () => {
    const c = validConfig();
    c.parallelism = -1;
    c.percentageOfNodesToScore = 200;
    expect(check(c)).toBe('[parallelism: Invalid value: -1: should be an integer value greater than zero, percentageOfNodesToScore: Invalid value: 200: not in valid range [0-100]]');
  });
});
