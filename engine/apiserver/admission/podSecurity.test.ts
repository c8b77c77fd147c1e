import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { podSecurity } from './podSecurity';
import { policyToEvaluate } from './podsecurity/api';
import { checksFor, evaluatePod, forbiddenDetail } from './podsecurity/evaluator';
import { attrs, FakeCluster, namespace, pod } from './testing';

const restrictedNs = namespace('secure', { 'pod-security.kubernetes.io/enforce': 'restricted' });
const baselineWarnNs = namespace('team', { 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/warn': 'restricted', 'pod-security.kubernetes.io/audit': 'restricted' });
const cluster = new FakeCluster([restrictedNs, baselineWarnNs, namespace('default')]);

const goodContainer = {
  name: 'app',
  image: 'nginx',
  securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
};

describe('PodSecurity', () => {
  it('refuses a plain pod under restricted, listing every failure in upstream order', () => {
    const v = podSecurity.validate!(attrs({ resource: 'pods', name: 'web', object: pod('web', 'secure', [{ name: 'c', image: 'nginx' }]) }), cluster);
    expect(v).toMatchObject({ allowed: false, status: { code: 403, reason: 'Forbidden' } });
    if (v.allowed) return;
    expect(v.status.message).toBe(
      'pods "web" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
  });

  it('puts baseline failures before restricted ones and names the details', () => {
    const bad = pod(
      'x',
      'secure',
      [
        { name: 'a', image: 'i', ports: [{ containerPort: 80, hostPort: 8080 }], securityContext: { privileged: true, capabilities: { add: ['NET_ADMIN'], drop: ['ALL'] }, runAsUser: 0 } },
        { name: 'b', image: 'i', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: false } },
      ],
      { hostNetwork: true, volumes: [{ name: 'host', hostPath: { path: '/' } }], securityContext: { seccompProfile: { type: 'RuntimeDefault' }, sysctls: [{ name: 'kernel.msgmax', value: '1' }] } },
    );
    const v = podSecurity.validate!(attrs({ resource: 'pods', name: 'x', object: bad }), cluster);
    expect(v.allowed ? '' : v.status.message).toBe(
      'pods "x" is forbidden: violates PodSecurity "restricted:latest": host namespaces (hostNetwork), hostPort (container "a" uses hostPort 8080), privileged (container "a" must not set securityContext.privileged=true), forbidden sysctls (kernel.msgmax), allowPrivilegeEscalation != false (container "a" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "a" must not include "NET_ADMIN" in securityContext.capabilities.add), restricted volume types (volume "host" uses restricted volume type "hostPath"), runAsNonRoot != true (container "b" must not set securityContext.runAsNonRoot=false), runAsUser=0 (container "a" must not set runAsUser=0)',
    );
  });

  it('admits a compliant pod and records the enforced policy', () => {
    const v = podSecurity.validate!(attrs({ resource: 'pods', name: 'ok', object: pod('ok', 'secure', [goodContainer]) }), cluster);
    expect(v).toEqual({ allowed: true, auditAnnotations: { 'pod-security.kubernetes.io/enforce-policy': 'restricted:latest' } });
  });

  it('warns (and audits) under warn while enforcing baseline', () => {
    const v = podSecurity.validate!(attrs({ resource: 'pods', name: 'web', object: pod('web', 'team', [{ name: 'c', image: 'nginx' }]) }), cluster);
    expect(v.allowed).toBe(true);
    const msg =
      'would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';
    expect(v.warnings).toEqual([msg]);
    expect(v.allowed && v.auditAnnotations).toEqual({ 'pod-security.kubernetes.io/enforce-policy': 'baseline:latest', 'pod-security.kubernetes.io/audit-violations': msg });
    const priv = podSecurity.validate!(attrs({ resource: 'pods', name: 'p', object: pod('p', 'team', [{ name: 'c', image: 'x', securityContext: { privileged: true } }]) }), cluster);
    expect(priv.allowed ? '' : priv.status.message).toBe('pods "p" is forbidden: violates PodSecurity "baseline:latest": privileged (container "c" must not set securityContext.privileged=true)');
    expect(priv.warnings).toBeUndefined();
  });

  it('checks workload templates against warn and audit only', () => {
    const deploy: KObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'secure' },
      spec: { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx', securityContext: { privileged: true } }] } } },
    };
    const v = podSecurity.validate!(attrs({ group: 'apps', resource: 'deployments', name: 'web', object: deploy }), cluster);
    expect(v.allowed).toBe(true);
    expect(v.warnings?.[0]).toMatch(/^would violate PodSecurity "restricted:latest": privileged \(container "c" must not set securityContext.privileged=true\), allowPrivilegeEscalation != false/);
    const cron: KObject = { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'c', namespace: 'team' }, spec: { jobTemplate: { spec: { template: { spec: { containers: [goodContainer] } } } } } };
    expect(podSecurity.validate!(attrs({ group: 'batch', resource: 'cronjobs', name: 'c', object: cron }), cluster)).toEqual({ allowed: true });
  });

  it('skips privileged namespaces, ignored subresources and insignificant updates', () => {
    const priv = pod('p', 'default', [{ name: 'c', image: 'x', securityContext: { privileged: true } }]);
    expect(podSecurity.validate!(attrs({ resource: 'pods', name: 'p', object: priv }), cluster)).toEqual({ allowed: true });
    const bad = pod('b', 'secure');
    expect(podSecurity.validate!(attrs({ operation: 'UPDATE', resource: 'pods', subresource: 'status', name: 'b', object: bad, oldObject: bad }), cluster).allowed).toBe(true);
    const relabeled = { ...bad, metadata: { ...bad.metadata, labels: { x: 'y' } } };
    expect(podSecurity.validate!(attrs({ operation: 'UPDATE', resource: 'pods', name: 'b', object: relabeled, oldObject: bad }), cluster).allowed).toBe(true);
    const reimaged = pod('b', 'secure', [{ name: 'nginx', image: 'nginx:2' }]);
    expect(podSecurity.validate!(attrs({ operation: 'UPDATE', resource: 'pods', name: 'b', object: reimaged, oldObject: bad }), cluster).allowed).toBe(false);
  });

  it('validates namespace labels and warns about existing pods on a stricter enforce level', () => {
    const badNs = namespace('n', { 'pod-security.kubernetes.io/enforce': 'strict' });
    const v = podSecurity.validate!(attrs({ resource: 'namespaces', name: 'n', object: badNs }), cluster);
    expect(v).toMatchObject({
      allowed: false,
      status: { code: 422, message: 'Namespace "n" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted' },
    });
    const withPods = new FakeCluster([namespace('apps'), pod('a1', 'apps'), pod('a0', 'apps'), pod('p1', 'apps', [{ name: 'c', image: 'x', securityContext: { privileged: true } }])]);
    const old = namespace('apps');
    const next = namespace('apps', { 'pod-security.kubernetes.io/enforce': 'baseline' });
    expect(podSecurity.validate!(attrs({ operation: 'UPDATE', resource: 'namespaces', name: 'apps', object: next, oldObject: old }), withPods).warnings).toEqual([
      'existing pods in namespace "apps" violate the new PodSecurity enforce level "baseline:latest"',
      'p1: privileged',
    ]);
    const restricted = namespace('apps', { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'v1.32' });
    expect(podSecurity.validate!(attrs({ operation: 'UPDATE', resource: 'namespaces', name: 'apps', object: restricted, oldObject: old }), withPods).warnings).toEqual([
      'existing pods in namespace "apps" violate the new PodSecurity enforce level "restricted:v1.32"',
      'a0 (and 1 other pod): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
      'p1: privileged, allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile',
    ]);
  });
});

describe('Pod Security policy and versions', () => {
  it('defaults warn to a stricter enforce level', () => {
    const { policy } = policyToEvaluate({ 'pod-security.kubernetes.io/enforce': 'baseline', 'pod-security.kubernetes.io/enforce-version': 'v1.25' });
    expect(policy.warn).toEqual({ level: 'baseline', version: { latest: false, minor: 25 } });
    expect(policy.audit.level).toBe('privileged');
  });

  it('applies each check from its version on', () => {
    const ids = (v: string) => checksFor({ level: 'restricted', version: v === 'latest' ? { latest: true } : { latest: false, minor: Number(v) } }).map((c) => c.id);
    expect(ids('21')).toContain('capabilities_baseline');
    expect(ids('21')).not.toContain('capabilities_restricted');
    expect(ids('22')).not.toContain('capabilities_baseline');
    expect(ids('22')).not.toContain('runAsUser');
    expect(ids('latest')).toEqual([
      'appArmorProfile',
      'hostNamespaces',
      'hostPorts',
      'privileged',
      'procMount',
      'seLinuxOptions',
      'sysctls',
      'windowsHostProcess',
      'allowPrivilegeEscalation',
      'capabilities_restricted',
      'restrictedVolumes',
      'runAsNonRoot',
      'runAsUser',
      'seccompProfile_restricted',
    ]);
    const spec = { containers: [{ name: 'c', image: 'x' }], securityContext: { sysctls: [{ name: 'net.ipv4.tcp_rmem', value: '1' }] } };
    const v131 = evaluatePod({ level: 'baseline', version: { latest: false, minor: 31 } }, {}, spec);
    expect(forbiddenDetail(v131)).toBe('forbidden sysctls (net.ipv4.tcp_rmem)');
    expect(evaluatePod({ level: 'baseline', version: { latest: true } }, {}, spec).allowed).toBe(true);
  });

  it('words the remaining baseline checks as upstream', () => {
    const lv = { level: 'baseline' as const, version: { latest: true as const } };
    const spec = {
      hostPID: true,
      hostIPC: true,
      securityContext: { seLinuxOptions: { type: 'spc_t', user: 'root' }, seccompProfile: { type: 'Unconfined' }, windowsOptions: { hostProcess: true } },
      containers: [{ name: 'c', image: 'x', securityContext: { procMount: 'Unmasked', capabilities: { add: ['SYS_ADMIN', 'CHOWN'] }, appArmorProfile: { type: 'Unconfined' } } }],
    };
    expect(forbiddenDetail(evaluatePod(lv, {}, spec))).toBe(
      'forbidden AppArmor profile (Unconfined), non-default capabilities (container "c" must not include "SYS_ADMIN" in securityContext.capabilities.add), host namespaces (hostIPC, hostPID), procMount (container "c" must not set securityContext.procMount to "Unmasked"), seLinuxOptions (pod set forbidden securityContext.seLinuxOptions: type "spc_t"; user may not be set), seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined"), hostProcess (pod must not set securityContext.windowsOptions.hostProcess=true)',
    );
  });
});
