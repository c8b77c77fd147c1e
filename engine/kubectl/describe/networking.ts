// kubectl describe networkpolicy (staging/src/k8s.io/kubectl/pkg/describe/describe.go
// v1.32: describeNetworkPolicy, describeNetworkPolicySpec and the ingress/egress
// rule printers). It lists no events.
import { formatLabelSelector } from '../../apimachinery/selectors/labels';
import { goTimeString } from '../../apiserver/protobuf/goTime';
import { parseTime } from '../util/duration';
import { PrefixWriter, printAnnotationsMultiline, printLabelsMultiline } from './writer';

type Obj = Record<string, any>;

/** metav1.Time through %s (time.Time.String()): `2006-01-02 15:04:05 +0000 UTC`. */
function timeText(ts: unknown): string {
  const t = parseTime(ts);
  return t === undefined ? '0001-01-01 00:00:00 +0000 UTC' : goTimeString(Math.floor(t / 1000));
}

function printPorts(w: PrefixWriter, ports: Obj[] | undefined, indent: string): void {
  if (!ports || ports.length === 0) {
    w.write(0, `${indent}To Port: <any> (traffic allowed to all ports)\n`);
    return;
  }
  for (const p of ports) {
    const proto = p.protocol ?? 'TCP';
    if (p.endPort === undefined || p.endPort === null) w.write(0, `${indent}To Port: ${p.port ?? '<nil>'}/${proto}\n`);
    else w.write(0, `${indent}To Port Range: ${p.port ?? '<nil>'}-${p.endPort}/${proto}\n`);
  }
}

/** One From/To peer list ("From:"/"To:" then the selectors or ipBlock). */
function printPeers(w: PrefixWriter, peers: Obj[] | undefined, indent: string, label: 'From' | 'To', anyText: string): void {
  if (!peers || peers.length === 0) {
    w.write(0, `${indent}${label}: <any> (${anyText})\n`);
    return;
  }
  for (const p of peers) {
    w.write(0, `${indent}${label}:\n`);
    if (p.podSelector && p.namespaceSelector) {
      w.write(1, `${indent}NamespaceSelector: ${formatLabelSelector(p.namespaceSelector)}\n`);
      w.write(1, `${indent}PodSelector: ${formatLabelSelector(p.podSelector)}\n`);
    } else if (p.podSelector) w.write(1, `${indent}PodSelector: ${formatLabelSelector(p.podSelector)}\n`);
    else if (p.namespaceSelector) w.write(1, `${indent}NamespaceSelector: ${formatLabelSelector(p.namespaceSelector)}\n`);
    else if (p.ipBlock) {
      w.write(1, `${indent}IPBlock:\n`);
      w.write(2, `${indent}CIDR: ${p.ipBlock.cidr ?? ''}\n`);
      w.write(2, `${indent}Except: ${((p.ipBlock.except as string[]) ?? []).join(', ')}\n`);
    }
  }
}

function printRules(w: PrefixWriter, rules: Obj[] | undefined, indent: string, ingress: boolean): void {
  if (!rules || rules.length === 0) {
    w.write(0, `${indent}<none> (Selected pods are isolated for ${ingress ? 'ingress' : 'egress'} connectivity)\n`);
    return;
  }
  rules.forEach((r, i) => {
    printPorts(w, r.ports, indent);
    if (ingress) printPeers(w, r.from, indent, 'From', 'traffic not restricted by source');
    else printPeers(w, r.to, indent, 'To', 'traffic not restricted by destination');
    if (i !== rules.length - 1) w.write(0, `${indent}----------\n`);
  });
}

export function describeNetworkPolicy(np: Obj): string {
  const w = new PrefixWriter();
  const spec: Obj = np.spec ?? {};
  w.write(0, `Name:\t${np.metadata?.name ?? ''}\n`);
  w.write(0, `Namespace:\t${np.metadata?.namespace ?? ''}\n`);
  w.write(0, `Created on:\t${timeText(np.metadata?.creationTimestamp)}\n`);
  printLabelsMultiline(w, 'Labels', np.metadata?.labels);
  printAnnotationsMultiline(w, 'Annotations', np.metadata?.annotations);
  w.write(0, 'Spec:\n');
  w.write(1, 'PodSelector: ');
  const ps: Obj = spec.podSelector ?? {};
  if (Object.keys(ps.matchLabels ?? {}).length === 0 && ((ps.matchExpressions as Obj[]) ?? []).length === 0) w.write(2, '<none> (Allowing the specific traffic to all pods in this namespace)\n');
  else w.write(2, `${formatLabelSelector(ps)}\n`);
  const types = (spec.policyTypes as string[]) ?? [];
  if (types.includes('Ingress')) {
    w.write(1, 'Allowing ingress traffic:\n');
    printRules(w, spec.ingress, '    ', true);
  } else w.write(1, 'Not affecting ingress traffic\n');
  if (types.includes('Egress')) {
    w.write(1, 'Allowing egress traffic:\n');
    printRules(w, spec.egress, '    ', false);
  } else w.write(1, 'Not affecting egress traffic\n');
  w.write(1, `Policy Types: ${types.length > 0 ? types.join(', ') : '<none>'}\n`);
  return w.done();
}
