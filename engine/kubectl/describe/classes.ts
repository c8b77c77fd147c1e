// kubectl describe priorityclass and storageclass
// (staging/src/k8s.io/kubectl/pkg/describe/describe.go v1.32:
// describePriorityClass, describeStorageClass).
import { describeEvents, PrefixWriter } from './writer';

type Obj = Record<string, any>;

/** labels.FormatLabels: sorted k=v pairs, or <none>. */
function formatLabels(m: Record<string, string> | undefined): string {
  const keys = Object.keys(m ?? {}).sort();
  return keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${m![k]}`).join(',');
}

export function describePriorityClass(pc: Obj, events: Obj[] | null, now: number): string {
  const w = new PrefixWriter();
  w.write(0, `Name:\t${pc.metadata?.name ?? ''}\n`);
  w.write(0, `Value:\t${pc.value ?? 0}\n`);
  w.write(0, `GlobalDefault:\t${pc.globalDefault === true}\n`);
  w.write(0, `PreemptionPolicy:\t${pc.preemptionPolicy ?? ''}\n`);
  w.write(0, `Description:\t${pc.description ?? ''}\n`);
  w.write(0, `Annotations:\t${formatLabels(pc.metadata?.annotations)}\n`);
  describeEvents(events, w, now);
  return w.done();
}

const DEFAULT_CLASS = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class'];

export function describeStorageClass(sc: Obj, events: Obj[] | null, now: number): string {
  const w = new PrefixWriter();
  const annotations = (sc.metadata?.annotations ?? {}) as Record<string, string>;
  w.write(0, `Name:\t${sc.metadata?.name ?? ''}\n`);
  w.write(0, `IsDefaultClass:\t${DEFAULT_CLASS.some((k) => annotations[k] === 'true') ? 'Yes' : 'No'}\n`);
  w.write(0, `Annotations:\t${formatLabels(annotations)}\n`);
  w.write(0, `Provisioner:\t${sc.provisioner ?? ''}\n`);
  w.write(0, `Parameters:\t${formatLabels(sc.parameters)}\n`);
  w.write(0, `AllowVolumeExpansion:\t${sc.allowVolumeExpansion === undefined || sc.allowVolumeExpansion === null ? '<unset>' : String(sc.allowVolumeExpansion)}\n`);
  const opts = (sc.mountOptions as string[]) ?? [];
  if (opts.length === 0) w.write(0, 'MountOptions:\t<none>\n');
  else {
    w.write(0, 'MountOptions:\n');
    for (const o of opts) w.write(1, `${o}\n`);
  }
  if (sc.reclaimPolicy) w.write(0, `ReclaimPolicy:\t${sc.reclaimPolicy}\n`);
  if (sc.volumeBindingMode) w.write(0, `VolumeBindingMode:\t${sc.volumeBindingMode}\n`);
  const topologies = sc.allowedTopologies as Obj[] | undefined | null;
  if (topologies) {
    w.write(0, 'AllowedTopologies:\t');
    if (topologies.length === 0) w.writeLine('<none>');
    else {
      w.writeLine('');
      topologies.forEach((term, i) => {
        w.write(1, `Term ${i}:\t`);
        const reqs = (term.matchLabelExpressions as Obj[]) ?? [];
        if (reqs.length === 0) w.writeLine('<none>');
        reqs.forEach((r, j) => {
          if (j !== 0) w.write(1, '\t');
          const vals = (r.values as string[]) ?? [];
          w.write(0, `${r.key} in${vals.length > 0 ? ` [${vals.join(', ')}]` : ''}\n`);
        });
      });
    }
  }
  describeEvents(events, w, now);
  return w.done();
}
