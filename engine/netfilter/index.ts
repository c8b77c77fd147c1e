// A node's Linux netfilter (iptables) state: iptables-restore and -save in the
// form kube-proxy writes and reads, and the first packet of a connection
// through the nat and filter hooks.
export type { Chain, Netfilter, Rule, Table } from './types';
export { newNetfilter, chainNames } from './state';
export { restore } from './restore';
export { save } from './save';
export { ensureChain, ensureRule } from './ensure';
export { traverse, type Packet, type Verdict } from './traverse';
export { traceTraverse, type PacketTrace, type TraceStep, type TraceType } from './trace';
