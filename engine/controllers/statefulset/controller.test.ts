// StatefulSetController writes and the events upstream's StatefulPodControl records for them.
import { describe, expect, it } from 'vitest';
import type { KObject } from '../../apimachinery/types';
import { rfc3339 } from '../../apiserver/http/time';
import { FakeContext } from '../framework/testing';
import { newControllerRevision, templatePatch } from '../history/history';
import { KIND } from '../replicaset/podUtil';
import { StatefulSetController } from './controller';

function setup() {
  const set: KObject = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'web', namespace: 'default', uid: 'uid-web', generation: 1, resourceVersion: '5', creationTimestamp: rfc3339(0) },
    spec: {
      replicas: 1,
      serviceName: 'web',
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1' }] } },
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      revisionHistoryLimit: 10,
      volumeClaimTemplates: ['www', 'logs'].map((name) => ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } })),
    },
    status: { replicas: 0, availableReplicas: 0 },
  };
  const cr = newControllerRevision(set, KIND.StatefulSet, { app: 'web' }, templatePatch(set), 1, 0);
  cr.metadata.uid = 'uid-cr';
  cr.metadata.resourceVersion = '4';
  const c = new StatefulSetController();
  const ctx = new FakeContext();
  (ctx.store('controllerrevisions') as Map<string, KObject>).set(`default/${cr.metadata.name}`, cr);
  ctx.upsert(c, 'statefulsets', set);
  return { c, ctx };
}

const quota = (name: string) => ({ kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403, message: `persistentvolumeclaims "${name}" is forbidden: exceeded quota: q` });

describe('StatefulSetController claim creation failures', () => {
  it('a claim that cannot be created is the claim event and the pod FailedCreate with the aggregated errors (CreateStatefulPod)', () => {
    const { c, ctx } = setup();
    ctx.drain(c);
    expect(ctx.calls.map((x) => `${x.call.method} ${(x.call.body as KObject).metadata.name}`)).toEqual(['POST www-web-0', 'POST logs-web-0']);
    ctx.respond(c, 403, quota('www-web-0'));
    ctx.respond(c, 409, { kind: 'Status', status: 'Failure', reason: 'AlreadyExists', code: 409, message: 'persistentvolumeclaims "logs-web-0" already exists' });
    expect(ctx.events.map((e) => `${e.type} ${e.reason} ${e.message}`)).toEqual([
      'Warning FailedCreate create Claim www-web-0 for Pod web-0 in StatefulSet web failed error: persistentvolumeclaims "www-web-0" is forbidden: exceeded quota: q',
      'Warning FailedCreate create Pod web-0 in StatefulSet web failed error: [failed to create PVC www-web-0: persistentvolumeclaims "www-web-0" is forbidden: exceeded quota: q, failed to create PVC logs-web-0: persistentvolumeclaims "logs-web-0" already exists]',
    ]);
    // The pod is not created; the status is still written.
    expect(ctx.calls.map((x) => `${x.call.method} ${x.call.path.split('/').slice(-2).join('/')}`)).toEqual(['PUT web/status']);
  });
});
