// The node's end of the pod network: a connection from a container here to a
// pod on another node leaves as a PodConnect packet for the host its podCIDR
// is routed to, and that host's pod answers (PodConnectReply: the HTTP answer,
// or a reset when nothing listens on the port; ICMP host unreachable once the
// bridge's ARP gives up on an address no pod has). No answer at all — its node
// is down or cut off, nothing routes the address — and the client gives up
// when its timeout (or the kernel's, 127 s) runs out.
//
// The node's actor stands for the whole machine here: the packets reach the
// kubelet's actor, as they reach the node's kernel, and while the kubelet
// process is down the machine still answers for its pods (hostReceive, the
// actor kind's host handler). Connections within the node (the pod itself,
// pods on the same bridge) never leave the runtime.
import type { ActorId, HostContext, Payload } from '../../sim/actor';
import type { FakeRuntime, OutboundConn } from '../runtime/runtime';
import type { ActorContext } from '../../sim/kernel';
import { ARP_FAIL_MS, type NetCall, type NetOutcome } from '../runtime/shell/net';
import type { Kubelet } from '../kubelet';
import { runtimeChanged } from '../pod/podWorkers';
import { applyIptablesSync } from './iptables';
import { onCorednsView } from './processes';
import type { CorednsViewMsg } from '../../coredns/server';
import type { IptablesSyncMsg } from '../../kubeproxy/messages';

export interface PodConnectMsg {
  type: 'PodConnect';
  conn: number;
  srcIP: string;
  call: NetCall;
}

export interface PodConnectReplyMsg {
  type: 'PodConnectReply';
  conn: number;
  outcome: NetOutcome;
}

export const NET_TIMERS = new Set(['netTimeout', 'netWake', 'netUnreachable']);

/** The kubelet starts: its podCIDR is routed to this host, and connections its containers still wait on get their timeouts back. */
export function startPodNetwork(k: Kubelet, ctx: ActorContext): void {
  ctx.addPodRoute(k.config.podCIDR);
  // And its own address (NodePorts, the host's ports), as the node's subnet routes it.
  ctx.addPodRoute(`${k.config.internalIP}/32`);
  for (const o of k.runtime.conns.values()) armTimeout(ctx, o);
  k.netWakeAt = Infinity;
  k.netWakeTimer = null;
}

/**
 * After each event: connections containers opened go out, and the kubelet
 * wakes when a container's main process next connects out (it runs lazily
 * otherwise, and would open it late).
 */
export function flushPodNetwork(k: Kubelet, ctx: ActorContext): void {
  const rt = k.runtime;
  if (rt.outbound.length) {
    for (const o of rt.takeOutbound()) {
      const to = o.dropped ? undefined : ctx.podRouteOf(o.call.http.ip);
      // Sent at its time, or now when the process got there before anyone looked.
      if (to !== undefined) {
        const m: PodConnectMsg = { type: 'PodConnect', conn: o.conn, srcIP: o.srcIP, call: o.call };
        ctx.send(to, m);
      }
      armTimeout(ctx, o);
    }
  }
  if (!rt.hasNetUsers) return;
  let at = rt.nextConnectAt();
  // A wake that opened nothing is not repeated at the same instant (the look-ahead is looked at again later).
  if (at <= ctx.now && k.netWokeAt === ctx.now) at = Infinity;
  if (at === Infinity) rt.hasNetUsers = [...rt.containers.values()].some((c) => c.state === 'running' && c.netUser);
  if (at === k.netWakeAt) return;
  if (k.netWakeTimer !== null) ctx.cancelTimer(k.netWakeTimer);
  k.netWakeTimer = at === Infinity ? null : ctx.setTimer(Math.max(0, at - ctx.now), 'netWake');
  k.netWakeAt = at;
}

/** The client gives up on `o` when its timeout runs out. */
function armTimeout(ctx: ActorContext, o: OutboundConn): void {
  ctx.setTimer(Math.max(0, o.openedAt + o.call.timeoutMs - ctx.now), 'netTimeout', o.conn);
}

export function podNetworkTimer(k: Kubelet, ctx: ActorContext, tag: string, data: unknown): void {
  if (tag === 'netUnreachable') return answered(k, ctx, data as number, { k: 'unreachable' });
  if (tag === 'netWake') {
    k.netWakeTimer = null;
    k.netWakeAt = Infinity;
    k.netWokeAt = ctx.now;
    // Running the processes to now opens their connections (flushPodNetwork sends them).
    k.runtime.advance(ctx.now);
    return;
  }
  answered(k, ctx, data as number, { k: 'timeout' });
}

/**
 * A packet for a pod here: the pod answers, or ICMP host unreachable when no
 * pod has the address. The node's kernel does this, so it goes on while the
 * kubelet process is down (hostReceive).
 */
export function onPodConnect(runtime: FakeRuntime | null, host: Pick<HostContext, 'send' | 'podRouteOf' | 'now'>, from: ActorId, m: PodConnectMsg): void {
  const a = runtime?.accept(m.call.http.ip, m.call, m.srcIP, host.now);
  if (!runtime || !a || a.k === 'dropped') return;
  if (a.k === 'forward') {
    // NodePort traffic DNATed to a pod elsewhere: on to its node, from this node's address; the answer comes back here.
    const to = host.podRouteOf(a.call.http.ip);
    if (to === undefined) return;
    const fwd: PodConnectMsg = { type: 'PodConnect', conn: runtime.relay(from, m.conn), srcIP: a.srcIP, call: a.call };
    host.send(to, fwd);
    return;
  }
  const reply: PodConnectReplyMsg = { type: 'PodConnectReply', conn: m.conn, outcome: a };
  host.send(from, reply);
}

/** The answer to a connection this node forwarded: back to where it came from. True when it was one. */
function relayed(runtime: FakeRuntime | null, send: (to: ActorId, p: PodConnectReplyMsg) => void, m: PodConnectReplyMsg): boolean {
  const r = runtime?.takeRelay(m.conn);
  if (!r) return false;
  send(r.from, { ...m, conn: r.conn });
  return true;
}

/**
 * An answer for a connection from here. Host unreachable comes once the
 * far bridge's ARP has given up, ARP_FAIL_MS after the connection opened.
 */
export function onPodConnectReply(k: Kubelet, ctx: ActorContext, m: PodConnectReplyMsg): void {
  if (relayed(k.runtime, (to, r) => ctx.send(to, r), m)) return;
  const o = k.runtime.conns.get(m.conn);
  if (m.outcome.k === 'unreachable' && o && ctx.now < o.openedAt + ARP_FAIL_MS) {
    ctx.setTimer(o.openedAt + ARP_FAIL_MS - ctx.now, 'netUnreachable', m.conn);
    return;
  }
  answered(k, ctx, m.conn, m.outcome);
}

/** The node's kernel while the kubelet process is down: pods go on answering, and answers reach the processes that wait. */
export function hostReceive(host: HostContext, runtime: FakeRuntime | null, from: ActorId, p: Payload): void {
  if (p.type === 'PodConnect') return onPodConnect(runtime, host, from, p as unknown as PodConnectMsg);
  if (p.type === 'IptablesSync') return host.send(from, applyIptablesSync(runtime?.netfilter ?? null, p as unknown as IptablesSyncMsg));
  if (p.type === 'CorednsView') return onCorednsView(runtime, p as unknown as CorednsViewMsg);
  const m = p as unknown as PodConnectReplyMsg;
  if (relayed(runtime, (to, r) => host.send(to, r), m)) return;
  runtime?.connDone(m.conn, m.outcome, host.now);
}

/** A connection came to an end: its process goes on, and whoever follows that process hears of it. */
function answered(k: Kubelet, ctx: ActorContext, conn: number, outcome: NetOutcome): void {
  const o = k.runtime.connDone(conn, outcome, ctx.now);
  if (!o) return;
  const c = k.runtime.containers.get(o.containerId);
  if (c && c.proc === o.proc) runtimeChanged(k, ctx, c.podUid);
  k.server.resumed(k, ctx, o.proc, o.containerId);
}
