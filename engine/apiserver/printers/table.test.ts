import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { cloneState } from '../../sim/serial';
import { SIM_EPOCH_MS } from '../http/time';
import { RESOURCES, resourceFor, type ResourceInfo } from '../registry/resources';
import { DOC } from './descriptions';
import { printerFor } from './registry';
import { toTable } from './table';

const res = (group: string, resource: string): ResourceInfo => {
  const r = resourceFor(group, resource);
  if (!r) throw new Error(`no resource ${group}/${resource}`);
  return r;
};

/** Virtual time: objects are stamped relative to SIM_EPOCH_MS (2025-01-01T00:00:00Z). */
const NOW = 5 * 60 * 60 * 1000;

const pod = (name: string, phase: string, rv: string): KObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default', resourceVersion: rv, uid: `uid-${name}`, creationTimestamp: '2025-01-01T00:00:00Z', labels: { app: 'web' } },
  spec: { nodeName: 'node-1', containers: [{ name: 'app', image: 'nginx' }] },
  status: {
    phase,
    podIPs: [{ ip: '10.244.0.7' }],
    containerStatuses: [
      {
        name: 'app',
        ready: phase === 'Running',
        restartCount: 0,
        state: phase === 'Running' ? { running: {} } : { terminated: { exitCode: 0, reason: 'Completed' } },
      },
    ],
  },
});

describe('toTable', () => {
  it('a pod list: the whole Table, with row objects as PartialObjectMetadata by default', () => {
    const pods = [pod('web-0', 'Running', '10'), pod('job-x', 'Succeeded', '11')];
    const t = toTable(res('', 'pods'), pods, {
      now: NOW,
      includeObject: 'Metadata',
      listMeta: { resourceVersion: '42', continue: 'abc', remainingItemCount: 3 },
    });
    expect(t['kind']).toBe('Table');
    expect(t['apiVersion']).toBe('meta.k8s.io/v1');
    expect(t['metadata']).toEqual({ resourceVersion: '42', continue: 'abc', remainingItemCount: 3 });
    expect((t['columnDefinitions'] as unknown[]).length).toBe(9);
    expect((t['columnDefinitions'] as unknown[])[0]).toEqual({ name: 'Name', type: 'string', format: 'name', description: DOC['meta.name'], priority: 0 });
    expect(t['rows']).toEqual([
      {
        cells: ['web-0', '1/1', 'Running', '0', '5h', '10.244.0.7', 'node-1', '<none>', '<none>'],
        object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: pods[0]!.metadata },
      },
      {
        cells: ['job-x', '0/1', 'Completed', '0', '5h', '10.244.0.7', 'node-1', '<none>', '<none>'],
        conditions: [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }],
        object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: pods[1]!.metadata },
      },
    ]);
    // JSON round trip: the Table is plain data, with the row keys in upstream's order.
    expect(Object.keys((t['rows'] as Record<string, unknown>[])[1]!)).toEqual(['cells', 'conditions', 'object']);
    expect(JSON.parse(JSON.stringify(t))).toEqual(t);
  });

  it('includeObject=Object embeds the object, None nulls it', () => {
    const p = pod('web-0', 'Running', '10');
    const full = toTable(res('', 'pods'), [p], { now: NOW, includeObject: 'Object', listMeta: { resourceVersion: '42' } });
    expect((full['rows'] as { object: unknown }[])[0]!.object).toEqual(p);
    const none = toTable(res('', 'pods'), [p], { now: NOW, includeObject: 'None', listMeta: { resourceVersion: '42' } });
    expect((none['rows'] as { object: unknown }[])[0]!.object).toBeNull();
  });

  it('a single object carries its own resourceVersion; noHeaders drops the columns', () => {
    const p = pod('web-0', 'Running', '10');
    const t = toTable(res('', 'pods'), [p], { now: NOW, includeObject: 'Object', noHeaders: true });
    expect(t['metadata']).toEqual({ resourceVersion: '10' });
    expect(t['columnDefinitions']).toBeNull();
  });

  it('ages come from virtual time', () => {
    const p = pod('web-0', 'Running', '10');
    const cells = (now: number) => (toTable(res('', 'pods'), [p], { now, includeObject: 'None', listMeta: {} })['rows'] as { cells: unknown[] }[])[0]!.cells[4];
    expect(cells(90 * 1000)).toBe('90s');
    expect(cells(3 * 24 * 60 * 60 * 1000)).toBe('3d');
    expect(SIM_EPOCH_MS).toBe(Date.UTC(2025, 0, 1));
  });

  it('resources without a printer get NAME and CREATED AT (rest.defaultTableConvertor)', () => {
    const role: KObject = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'reader', namespace: 'default', resourceVersion: '7', creationTimestamp: '2025-03-04T05:06:07Z' },
      rules: [],
    };
    const t = toTable(res('rbac.authorization.k8s.io', 'roles'), [role], { now: NOW, includeObject: 'Metadata', listMeta: { resourceVersion: '9' } });
    expect(t['columnDefinitions']).toEqual([
      { name: 'Name', type: 'string', format: 'name', description: DOC['meta.name'], priority: 0 },
      { name: 'Created At', type: 'date', format: '', description: DOC['meta.creationTimestamp'], priority: 0 },
    ]);
    expect((t['rows'] as { cells: unknown[] }[])[0]!.cells).toEqual(['reader', '2025-03-04T05:06:07Z']);
    // An empty list there has null rows; a printer's empty list has [].
    expect(
      toTable(res('rbac.authorization.k8s.io', 'roles'), [], { now: NOW, includeObject: 'Metadata', listMeta: { resourceVersion: '9' } })['rows'],
    ).toBeNull();
    expect(toTable(res('', 'pods'), [], { now: NOW, includeObject: 'Metadata', listMeta: { resourceVersion: '9' } })['rows']).toEqual([]);
    const noTime: KObject = { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'lr', namespace: 'default' } };
    expect((toTable(res('', 'limitranges'), [noTime], { now: NOW, includeObject: 'None' })['rows'] as { cells: unknown[] }[])[0]!.cells).toEqual([
      'lr',
      '0001-01-01T00:00:00Z',
    ]);
  });

  it('events.k8s.io events use the event printer', () => {
    expect(printerFor('events.k8s.io', 'events')).toBe(printerFor('', 'events'));
  });

  it('every served resource prints a minimal object with one cell per column', () => {
    for (const r of RESOURCES) {
      const o: KObject = {
        apiVersion: r.group ? `${r.group}/${r.version}` : r.version,
        kind: r.kind,
        metadata: { name: 'x', creationTimestamp: '2025-01-01T00:00:00Z' },
      };
      const t = toTable(r, [o], { now: NOW, includeObject: 'None', listMeta: {} });
      const columns = t['columnDefinitions'] as unknown[];
      const cells = (t['rows'] as { cells: unknown[] }[])[0]!.cells;
      expect(cells.length, `${r.group}/${r.resource}`).toBe(columns.length);
      expect(cells[columns.findIndex((c) => (c as { format: string }).format === 'name')]).toBe('x');
    }
  });

  it('is a pure function of its inputs: a cloned object prints the same', () => {
    const p = pod('web-0', 'Running', '10');
    const opts = { now: NOW, includeObject: 'Object' as const, listMeta: { resourceVersion: '1' } };
    expect(toTable(res('', 'pods'), [cloneState(p)], opts)).toEqual(toTable(res('', 'pods'), [p], opts));
  });
});

describe('column definitions match upstream for each printer', () => {
  const expected: Record<string, string> = {
    '/pods': 'Name,Ready,Status,Restarts,Age,IP*,Node*,Nominated Node*,Readiness Gates*',
    '/podtemplates': 'Name,Containers,Images,Pod Labels',
    '/replicationcontrollers': 'Name,Desired,Current,Ready,Age,Containers*,Images*,Selector*',
    '/services': 'Name,Type,Cluster-IP,External-IP,Port(s),Age,Selector*',
    '/endpoints': 'Name,Endpoints,Age',
    '/nodes': 'Name,Status,Roles,Age,Version,Internal-IP*,External-IP*,OS-Image*,Kernel-Version*,Container-Runtime*',
    '/events': 'Last Seen,Type,Reason,Object,Subobject*,Source*,Message,First Seen*,Count*,Name*',
    '/namespaces': 'Name,Status,Age',
    '/secrets': 'Name,Type,Data,Age',
    '/serviceaccounts': 'Name,Secrets,Age',
    '/persistentvolumes': 'Name,Capacity,Access Modes,Reclaim Policy,Status,Claim,StorageClass,VolumeAttributesClass,Reason,Age,VolumeMode*',
    '/persistentvolumeclaims': 'Name,Status,Volume,Capacity,Access Modes,StorageClass,VolumeAttributesClass,Age,VolumeMode*',
    '/configmaps': 'Name,Data,Age',
    '/resourcequotas': 'Name,Request,Limit,Age',
    'apps/deployments': 'Name,Ready,Up-to-date,Available,Age,Containers*,Images*,Selector*',
    'apps/replicasets': 'Name,Desired,Current,Ready,Age,Containers*,Images*,Selector*',
    'apps/statefulsets': 'Name,Ready,Age,Containers*,Images*',
    'apps/daemonsets': 'Name,Desired,Current,Ready,Up-to-date,Available,Node Selector,Age,Containers*,Images*,Selector*',
    'apps/controllerrevisions': 'Name,Controller,Revision,Age',
    'batch/jobs': 'Name,Status,Completions,Duration,Age,Containers*,Images*,Selector*',
    'batch/cronjobs': 'Name,Schedule,Timezone,Suspend,Active,Last Schedule,Age,Containers*,Images*,Selector*',
    'autoscaling/horizontalpodautoscalers': 'Name,Reference,Targets,MinPods,MaxPods,Replicas,Age',
    'policy/poddisruptionbudgets': 'Name,Min Available,Max Unavailable,Allowed Disruptions,Age',
    'coordination.k8s.io/leases': 'Name,Holder,Age',
    'discovery.k8s.io/endpointslices': 'Name,AddressType,Ports,Endpoints,Age',
    'networking.k8s.io/ingresses': 'Name,Class,Hosts,Address,Ports,Age',
    'networking.k8s.io/ingressclasses': 'Name,Controller,Parameters,Age',
    'networking.k8s.io/networkpolicies': 'Name,Pod-Selector,Age',
    'rbac.authorization.k8s.io/rolebindings': 'Name,Role,Age,Users*,Groups*,ServiceAccounts*',
    'rbac.authorization.k8s.io/clusterrolebindings': 'Name,Role,Age,Users*,Groups*,ServiceAccounts*',
    'scheduling.k8s.io/priorityclasses': 'Name,Value,Global-Default,Age,PreemptionPolicy',
    'storage.k8s.io/storageclasses': 'Name,Provisioner,ReclaimPolicy,VolumeBindingMode,AllowVolumeExpansion,Age',
    'admissionregistration.k8s.io/mutatingwebhookconfigurations': 'Name,Webhooks,Age',
    'admissionregistration.k8s.io/validatingwebhookconfigurations': 'Name,Webhooks,Age',
    'admissionregistration.k8s.io/validatingadmissionpolicies': 'Name,Validations,ParamKind,Age',
    'admissionregistration.k8s.io/validatingadmissionpolicybindings': 'Name,PolicyName,ParamRef,Age',
  };
  it.each(Object.entries(expected))('%s', (key, cols) => {
    const [group, resource] = key.split('/') as [string, string];
    const p = printerFor(group, resource);
    expect(p).toBeDefined();
    expect(p!.columns.map((c) => (c.priority ? `${c.name}*` : c.name)).join(',')).toBe(cols);
    for (const c of p!.columns) expect(c.description.length, `${key} ${c.name}`).toBeGreaterThan(0);
  });

  it('resources without a printer upstream have none here', () => {
    for (const [g, r] of [
      ['rbac.authorization.k8s.io', 'roles'],
      ['rbac.authorization.k8s.io', 'clusterroles'],
      ['', 'limitranges'],
    ] as const) {
      expect(printerFor(g, r)).toBeUndefined();
    }
  });
});
