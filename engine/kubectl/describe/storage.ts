// kubectl describe pvc and pv (staging/src/k8s.io/kubectl/pkg/describe/describe.go
// v1.32: describePersistentVolumeClaim with printPersistentVolumeClaim and
// the pods using the claim; describePersistentVolume with printNodeAffinity
// and the hostPath, local and CSI source printers).
import { describeEvents, PrefixWriter, printAnnotationsMultiline, printLabelsMultiline, timeRfc1123z } from './writer';
import { formatQuantity } from '../util/quantityFormat';
import { timestampSince } from '../util/duration';

type Obj = Record<string, any>;

const MAX_ANNOTATION_LEN = 140;

/** storageutil.GetAccessModesAsString: RWO, ROX, RWX, RWOP in that order. */
export function accessModesString(modes: unknown): string {
  const set = new Set(Array.isArray(modes) ? modes : []);
  return [
    ['ReadWriteOnce', 'RWO'],
    ['ReadOnlyMany', 'ROX'],
    ['ReadWriteMany', 'RWX'],
    ['ReadWriteOncePod', 'RWOP'],
  ]
    .filter(([m]) => set.has(m))
    .map(([, s]) => s)
    .join(',');
}

/** GetPersistentVolumeClaimClass / GetPersistentVolumeClass: the beta annotation first, then the field. */
function storageClassOf(o: Obj, field: string | undefined): string {
  return o.metadata?.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? field ?? '';
}

/** Go's %v of a []string: `[a b]`. */
const goList = (v: unknown) => `[${(Array.isArray(v) ? v : []).join(' ')}]`;

function statusLine(w: PrefixWriter, o: Obj, now: number): void {
  if (o.metadata?.deletionTimestamp) w.write(0, `Status:\tTerminating (lasts ${timestampSince(o.metadata.deletionTimestamp, now)})\n`);
  else w.write(0, `Status:\t${o.status?.phase ?? ''}\n`);
}

/** getPodsForPVC: pods mounting the claim, or owning it as a generic ephemeral volume. */
export function podsUsingClaim(pvc: Obj, pods: Obj[]): string[] {
  const out: string[] = [];
  for (const pod of pods) {
    for (const v of pod.spec?.volumes ?? []) {
      const direct = v.persistentVolumeClaim?.claimName === pvc.metadata?.name;
      const ephemeral = v.ephemeral && `${pod.metadata?.name}-${v.name}` === pvc.metadata?.name && (pvc.metadata?.ownerReferences ?? []).some((r: Obj) => r.controller === true && r.uid === pod.metadata?.uid);
      if (direct || ephemeral) {
        out.push(pod.metadata.name);
        break;
      }
    }
  }
  return out.sort();
}

export function describePersistentVolumeClaim(pvc: Obj, events: Obj[] | null, usedBy: string[], now: number): string {
  const w = new PrefixWriter();
  const spec: Obj = pvc.spec ?? {};
  w.write(0, `Name:\t${pvc.metadata?.name ?? ''}\n`);
  w.write(0, `Namespace:\t${pvc.metadata?.namespace ?? ''}\n`);
  w.write(0, `StorageClass:\t${storageClassOf(pvc, spec.storageClassName)}\n`);
  statusLine(w, pvc, now);
  w.write(0, `Volume:\t${spec.volumeName ?? ''}\n`);
  printLabelsMultiline(w, 'Labels', pvc.metadata?.labels);
  printAnnotationsMultiline(w, 'Annotations', pvc.metadata?.annotations);
  w.write(0, `Finalizers:\t${goList(pvc.metadata?.finalizers)}\n`);
  const bound = !!spec.volumeName;
  w.write(0, `Capacity:\t${bound ? formatQuantity(pvc.status?.capacity?.storage ?? '0') : ''}\n`);
  w.write(0, `Access Modes:\t${bound ? accessModesString(pvc.status?.accessModes) : ''}\n`);
  if (spec.volumeMode) w.write(0, `VolumeMode:\t${spec.volumeMode}\n`);
  if (spec.dataSource) {
    w.write(0, 'DataSource:\n');
    if (spec.dataSource.apiGroup !== undefined && spec.dataSource.apiGroup !== null) w.write(1, `APIGroup:\t${spec.dataSource.apiGroup}\n`);
    w.write(1, `Kind:\t${spec.dataSource.kind ?? ''}\n`);
    w.write(1, `Name:\t${spec.dataSource.name ?? ''}\n`);
  }
  // printPodsMultiline
  w.write(0, 'Used By:\t');
  if (usedBy.length === 0) w.writeLine('<none>');
  usedBy.forEach((name, i) => {
    if (i > 0) w.write(0, '\t');
    w.write(0, `${name}\n`);
  });
  const conditions: Obj[] = pvc.status?.conditions ?? [];
  if (conditions.length > 0) {
    w.write(0, 'Conditions:\n');
    w.write(1, 'Type\tStatus\tLastProbeTime\tLastTransitionTime\tReason\tMessage\n');
    w.write(1, '----\t------\t-----------------\t------------------\t------\t-------\n');
    for (const c of conditions) w.write(1, `${c.type ?? ''} \t${c.status ?? ''} \t${timeRfc1123z(c.lastProbeTime)} \t${timeRfc1123z(c.lastTransitionTime)} \t${c.reason ?? ''} \t${c.message ?? ''}\n`);
  }
  if (events) describeEvents(events, w, now);
  return w.done();
}

function printNodeAffinity(w: PrefixWriter, affinity: Obj | undefined): void {
  w.write(0, 'Node Affinity:\t');
  if (!affinity?.required) return w.writeLine('<none>');
  w.writeLine('');
  w.write(1, 'Required Terms:\t');
  const terms: Obj[] = affinity.required.nodeSelectorTerms ?? [];
  if (terms.length === 0) return w.writeLine('<none>');
  w.writeLine('');
  terms.forEach((term, i) => {
    // printNodeSelectorTermsMultilineWithIndent
    w.write(2, `Term ${i}:\t`);
    const reqs: Obj[] = term.matchExpressions ?? [];
    if (reqs.length === 0) return w.writeLine('<none>');
    reqs.forEach((r, j) => {
      if (j > 0) w.write(2, '\t');
      const values: string[] = r.values ?? [];
      w.write(0, `${r.key} ${String(r.operator ?? '').toLowerCase()}${values.length ? ` [${values.join(', ')}]` : ''}\n`);
    });
  });
}

function printSource(w: PrefixWriter, spec: Obj): void {
  if (spec.hostPath) {
    w.write(2, `Type:\tHostPath (bare host directory volume)\n    Path:\t${spec.hostPath.path ?? ''}\n    HostPathType:\t${spec.hostPath.type ?? '<none>'}\n`);
  } else if (spec.local) {
    w.write(2, `Type:\tLocalVolume (a persistent volume backed by local storage on a node)\n    Path:\t${spec.local.path ?? ''}\n`);
  } else if (spec.csi) {
    const c = spec.csi;
    w.write(2, `Type:\tCSI (a Container Storage Interface (CSI) volume source)\n    Driver:\t${c.driver ?? ''}\n    FSType:\t${c.fsType ?? ''}\n    VolumeHandle:\t${c.volumeHandle ?? ''}\n    ReadOnly:\t${c.readOnly === true}\n`);
    // printCSIPersistentVolumeAttributesMultiline
    w.write(2, 'VolumeAttributes:\t');
    const attrs: Record<string, string> = c.volumeAttributes ?? {};
    const keys = Object.keys(attrs).sort();
    if (keys.length === 0) return w.writeLine('<none>');
    keys.forEach((k, i) => {
      if (i > 0) {
        w.write(2, '');
        w.write(2, '\t');
      }
      const line = `${k}=${attrs[k]}`;
      w.write(2, line.length > MAX_ANNOTATION_LEN ? `${line.slice(0, MAX_ANNOTATION_LEN)}...\n` : `${line}\n`);
    });
  }
}

export function describePersistentVolume(pv: Obj, events: Obj[] | null, now: number): string {
  const w = new PrefixWriter();
  const spec: Obj = pv.spec ?? {};
  w.write(0, `Name:\t${pv.metadata?.name ?? ''}\n`);
  printLabelsMultiline(w, 'Labels', pv.metadata?.labels);
  printAnnotationsMultiline(w, 'Annotations', pv.metadata?.annotations);
  w.write(0, `Finalizers:\t${goList(pv.metadata?.finalizers)}\n`);
  w.write(0, `StorageClass:\t${storageClassOf(pv, spec.storageClassName)}\n`);
  statusLine(w, pv, now);
  w.write(0, `Claim:\t${spec.claimRef ? `${spec.claimRef.namespace ?? ''}/${spec.claimRef.name ?? ''}` : ''}\n`);
  w.write(0, `Reclaim Policy:\t${spec.persistentVolumeReclaimPolicy ?? ''}\n`);
  w.write(0, `Access Modes:\t${accessModesString(spec.accessModes)}\n`);
  if (spec.volumeMode) w.write(0, `VolumeMode:\t${spec.volumeMode}\n`);
  w.write(0, `Capacity:\t${formatQuantity(spec.capacity?.storage ?? '0')}\n`);
  printNodeAffinity(w, spec.nodeAffinity);
  w.write(0, `Message:\t${pv.status?.message ?? ''}\n`);
  w.write(0, 'Source:\n');
  printSource(w, spec);
  if (events) describeEvents(events, w, now);
  return w.done();
}
