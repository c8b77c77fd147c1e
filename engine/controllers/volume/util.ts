// What the volume controllers share: the event reasons of
// pkg/controller/volume/events, the pod → claim index of
// pkg/controller/volume/common (PodPVCIndex) and the pod states of
// pkg/volume/util (IsPodTerminated), v1.32.
import type { KObject } from '../../apimachinery/types';
import { ephemeralClaimName } from '../../scheduler/plugins/volumeBinding/helpers';
import type { Loose } from '../endpoint/podutil';

export const VolumeEvents = {
  FailedBinding: 'FailedBinding',
  VolumeMismatch: 'VolumeMismatch',
  VolumeFailedRecycle: 'VolumeFailedRecycle',
  VolumeRecycled: 'VolumeRecycled',
  VolumeDelete: 'VolumeDelete',
  VolumeFailedDelete: 'VolumeFailedDelete',
  ExternalProvisioning: 'ExternalProvisioning',
  ProvisioningFailed: 'ProvisioningFailed',
  ProvisioningSucceeded: 'ProvisioningSucceeded',
  WaitForFirstConsumer: 'WaitForFirstConsumer',
  WaitForPodScheduled: 'WaitForPodScheduled',
} as const;

/** The claims ("ns/name") a pod's volumes use, generic ephemeral volumes included (PodPVCIndexFunc). */
export function podClaimKeys(pod: Loose): string[] {
  const out: string[] = [];
  const ns = pod.metadata.namespace ?? '';
  for (const v of pod.spec?.volumes ?? []) {
    if (v.persistentVolumeClaim?.claimName) out.push(`${ns}/${v.persistentVolumeClaim.claimName}`);
    else if (v.ephemeral) out.push(`${ns}/${ephemeralClaimName(pod, v)}`);
  }
  return out;
}

/** The pods that use a claim, in name order. */
export function podsUsingClaim(pods: ReadonlyMap<string, KObject>, claimKey: string): Loose[] {
  const ns = claimKey.slice(0, claimKey.indexOf('/'));
  const out: Loose[] = [];
  for (const p of pods.values()) if (p.metadata.namespace === ns && podClaimKeys(p).includes(claimKey)) out.push(p);
  return out.sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
}

/** Every container terminated or waiting (or none at all). */
const notRunning = (statuses: Loose[] | undefined): boolean => (statuses ?? []).every((s) => !!s.state?.terminated || !!s.state?.waiting);

/** volumeutil.IsPodTerminated: finished, or deleted with no container running. */
export function isPodTerminated(pod: Loose): boolean {
  const phase = pod.status?.phase;
  if (phase === 'Failed' || phase === 'Succeeded') return true;
  const st = pod.status ?? {};
  return !!pod.metadata.deletionTimestamp && notRunning(st.initContainerStatuses) && notRunning(st.containerStatuses) && notRunning(st.ephemeralContainerStatuses);
}

/** resourceVersions are etcd revisions: compare as numbers. */
export function rvOf(o: KObject | undefined): number {
  const v = Number(o?.metadata.resourceVersion ?? '');
  return Number.isFinite(v) ? v : -1;
}
