// What can be broken (or mended) on a node or a control-plane component, given
// the faults in effect: the items of the fault menus on the map, the component
// strip and the inspector. Each item is a fault command, so the command log
// replays what the user did.
import type { ActiveFault, Fault } from '../../engine/host/protocol';

export type FaultTarget = { type: 'node'; name: string } | { type: 'component'; name: string; kind: string };

export interface FaultAction {
  /** What the menu says ("Lose the node"), and what happens, for the tooltip. */
  label: string;
  detail: string;
  fault: Fault;
  /** Breaks something (drawn in red) or mends it. */
  breaks: boolean;
}

export interface TargetState {
  /** Whether the target's process runs (a node: its kubelet). */
  up: boolean;
  faults: readonly ActiveFault[];
}

const heal = (f: ActiveFault, label: string, detail: string): FaultAction => ({ label, detail, fault: { action: 'heal', id: f.id }, breaks: false });

export function faultActions(t: FaultTarget, s: TargetState): FaultAction[] {
  const mine = s.faults.filter((f) => f.targets.includes(t.name));
  const find = (action: Fault['action']) => mine.find((f) => f.fault.action === action && ('target' in f.fault ? f.fault.target === t.name : true));
  const out: FaultAction[] = [];
  if (t.type === 'node') {
    const lost = find('node-loss');
    if (lost) return [heal(lost, 'Bring the machine back', 'Heal the node loss: the machine boots and its kubelet registers again')];
    out.push({ label: 'Lose the node', detail: 'The machine is gone: its kubelet and containers stop and nothing reaches it', fault: { action: 'node-loss', target: t.name }, breaks: true });
    const cut = find('partition-node');
    if (cut) out.push(heal(cut, 'Reconnect to the API servers', 'Heal the partition between this node and the API servers'));
    else out.push({ label: 'Partition from the API servers', detail: 'The kubelet keeps running its pods but cannot reach any kube-apiserver', fault: { action: 'partition-node', target: t.name }, breaks: true });
    if (s.up) {
      out.push({ label: 'Restart the kubelet', detail: 'The kubelet process crashes and starts again; its containers keep running', fault: { action: 'kubelet-restart', target: t.name }, breaks: true });
      out.push({ label: 'Stop the kubelet', detail: 'The kubelet process stops (until restarted); its containers keep running', fault: { action: 'crash', target: t.name }, breaks: true });
    } else out.push({ label: 'Start the kubelet', detail: 'Start the stopped kubelet process again', fault: { action: 'restart', target: t.name }, breaks: false });
    return out;
  }
  if (s.up) out.push({ label: `Crash ${t.name}`, detail: 'The process stops; its durable state stays on disk', fault: { action: 'crash', target: t.name }, breaks: true });
  else out.push({ label: `Restart ${t.name}`, detail: 'Start the crashed process again', fault: { action: 'restart', target: t.name }, breaks: false });
  if (t.type === 'component' && t.kind === 'kube-apiserver') {
    const cut = mine.find((f) => f.fault.action === 'cut' && ((f.fault.from === t.name && f.fault.to === 'etcd') || (f.fault.to === t.name && f.fault.from === 'etcd')));
    if (cut) out.push(heal(cut, 'Reconnect to etcd', 'Heal the cut between this API server and etcd'));
    else out.push({ label: 'Cut off from etcd', detail: 'No traffic either way between this API server and every etcd member', fault: { action: 'cut', from: t.name, to: 'etcd' }, breaks: true });
  }
  return out;
}

/** The label of an action button that names its target ("Lose the node node-1"), for accessible names. */
export function actionName(a: FaultAction, t: FaultTarget): string {
  return a.label.includes(t.name) ? a.label : `${a.label} ${t.name}`;
}
