// kubectl describe endpoints and endpointslices
// (staging/src/k8s.io/kubectl/pkg/describe/describe.go v1.32: describeEndpoints,
// describeEndpointSliceV1).
import { describeEvents, PrefixWriter, printAnnotationsMultiline, printLabelsMultiline } from './writer';

type Obj = Record<string, any>;

function header(w: PrefixWriter, o: Obj): void {
  w.write(0, `Name:\t${o.metadata?.name ?? ''}\n`);
  w.write(0, `Namespace:\t${o.metadata?.namespace ?? ''}\n`);
  printLabelsMultiline(w, 'Labels', o.metadata?.labels);
  printAnnotationsMultiline(w, 'Annotations', o.metadata?.annotations);
}

const ips = (addrs: Obj[] | undefined) => (addrs ?? []).map((a) => String(a.ip ?? '')).join(',') || '<none>';

export function describeEndpoints(ep: Obj, events: Obj[] | null, now: number): string {
  const w = new PrefixWriter();
  header(w, ep);
  w.write(0, 'Subsets:\n');
  for (const s of (ep.subsets as Obj[]) ?? []) {
    w.write(1, `Addresses:\t${ips(s.addresses)}\n`);
    w.write(1, `NotReadyAddresses:\t${ips(s.notReadyAddresses)}\n`);
    const ports = (s.ports as Obj[]) ?? [];
    if (ports.length > 0) {
      w.write(1, 'Ports:\n');
      w.write(2, 'Name\tPort\tProtocol\n');
      w.write(2, '----\t----\t--------\n');
      for (const p of ports) w.write(2, `${p.name || '<unset>'}\t${p.port ?? 0}\t${p.protocol ?? ''}\n`);
    }
    w.write(0, '\n');
  }
  describeEvents(events, w, now);
  return w.done();
}

/** A *string or *bool field: its value, or <unset> when nil. */
const orUnset = (v: unknown) => (v === undefined || v === null ? '<unset>' : String(v));

export function describeEndpointSlice(eps: Obj, events: Obj[] | null, now: number): string {
  const w = new PrefixWriter();
  header(w, eps);
  w.write(0, `AddressType:\t${eps.addressType ?? ''}\n`);
  const ports = (eps.ports as Obj[]) ?? [];
  if (ports.length === 0) w.write(0, 'Ports: <unset>\n');
  else {
    w.write(0, 'Ports:\n');
    w.write(1, 'Name\tPort\tProtocol\n');
    w.write(1, '----\t----\t--------\n');
    for (const p of ports) w.write(1, `${p.name || '<unset>'}\t${orUnset(p.port)}\t${p.protocol ?? ''}\n`);
  }
  const endpoints = (eps.endpoints as Obj[]) ?? [];
  if (endpoints.length === 0) w.write(0, 'Endpoints: <none>\n');
  else {
    w.write(0, 'Endpoints:\n');
    for (const e of endpoints) {
      w.write(1, `- Addresses:\t${((e.addresses as string[]) ?? []).join(', ') || '<none>'}\n`);
      w.write(2, 'Conditions:\n');
      w.write(3, `Ready:\t${orUnset(e.conditions?.ready)}\n`);
      w.write(2, `Hostname:\t${orUnset(e.hostname)}\n`);
      if (e.targetRef) w.write(2, `TargetRef:\t${e.targetRef.kind ?? ''}/${e.targetRef.name ?? ''}\n`);
      w.write(2, `NodeName:\t${orUnset(e.nodeName)}\n`);
      w.write(2, `Zone:\t${orUnset(e.zone)}\n`);
    }
  }
  describeEvents(events, w, now);
  return w.done();
}
