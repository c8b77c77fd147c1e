// The node's fake container runtime: containerd behind the CRI, plus the bits
// of the machine it relies on (the kernel's cgroups and OOM killer, CNI's
// host-local IPAM, the image content store, the log files). The kubelet calls
// it as it calls CRI (RunPodSandbox, CreateContainer, StartContainer,
// StopContainer, ExecSync, PullImage, ListContainers, ContainerStats…).
//
// It is the node's durable state: it lives outside the kubelet process, so a
// kubelet crash and restart finds every container still there (running ones
// kept running meanwhile), as with containerd; a lost node powers it off.
// Processes are interpreted lazily (shell/interp.ts): `advance(now)` runs every
// container up to `now`, in time order, feeding the cgroup accounting exactly.
import { registerClass } from '../../sim/serial';
import { parseQuantity } from '../../apiserver/validation/quantity';
import { hex } from '../ids';
import { ContainerLog } from './logs';
import { UsageMeter } from './meter';
import { BASE_DIRS, imageContent, imageDigest, imageHasCommand, lookupImage, parseImage, processArgv, resolveImage, type CatalogImage } from './images';
import { FileSystem } from './shell/fs';
import { closeInput, cpuDemand, feedInput, netReply, nextStepAt, pendingConn, run, signal, spawn, spawnWithInput, unblockNet, type Proc, type ShellContext, type Signal } from './shell/interp';
import { BRIDGE_RTT_MS, LOOPBACK_RTT_MS, type NetCall, type NetOutcome } from './shell/net';
import { DEFAULT_TTL } from './shell/ping';
import { inCidr } from '../../sim/ipv4';
import { Rng } from '../../sim/rng';
import { newNetfilter, traverse, type Netfilter } from '../../netfilter';
import { serveHttp, type HttpAnswer, type HttpRequestFacts } from './shell/serve';
import { cpuLoadMilli, idleOf, oomAt, type Demand } from './usage';
import { corednsHttp, corednsQuery, type CorednsState } from '../../coredns/serve';

/** A pod sandbox (pause container, CNI ADD) is ready this long after RunPodSandbox. */
export const SANDBOX_MS = 500;
/** The User-Agent of the kubelet's HTTP probes (pkg/probe/http: kube-probe/<major>.<minor>). */
const KUBE_PROBE_AGENT = 'kube-probe/1.32';
/** Resolving a name the registry does not know takes this long before it fails. */
const RESOLVE_FAIL_MS = 800;
/** A pull of an image already present (policy Always) only checks its manifest. */
const MANIFEST_CHECK_MS = 200;
/** How far ahead the runtime looks for a container's next exit. */
const PREDICT_HORIZON_MS = 3_600_000;

/** What runs outside kubepods (the OS, kubelet, containerd): the usage model's node floor. */
const SYSTEM_USAGE: Demand = { cpuMilli: 40, memory: { baseBytes: 512 * 1024 * 1024, allocBytes: 0, rateBytesPerSec: 0, since: 0 } };

export interface Sandbox {
  id: string;
  podUid: string;
  name: string;
  namespace: string;
  attempt: number;
  createdAt: number;
  /** The network is up from then on. */
  readyAt: number;
  state: 'ready' | 'notready';
  ip: string;
  ipOffset: number;
  /** hostNetwork: no namespace of its own; its address and ports are the node's. */
  hostNetwork?: boolean;
}

/** The kubelet's container config (CRI ContainerConfig, with what its labels and annotations carry). */
export interface ContainerConfig {
  podUid: string;
  podName: string;
  namespace: string;
  name: string;
  /** The restart count (CRI metadata attempt). */
  attempt: number;
  /** As the pod spec writes it. */
  image: string;
  command?: string[];
  args?: string[];
  env: Record<string, string>;
  /** Files mounted into the container (ConfigMaps, Secrets, the service account, /etc/hosts…). */
  mounts: Record<string, string>;
  cpuLimitMilli: number;
  memoryLimitBytes: number;
  cpuRequestMilli: number;
  /** The pod's annotations at creation (the load annotation hpa-example serves). */
  annotations: Record<string, string>;
  kind: 'init' | 'sidecar' | 'regular' | 'ephemeral';
  /** The container's stdin stays open for `kubectl attach` (spec stdin), closed after the first attach (stdinOnce), a terminal (tty). */
  stdin?: boolean;
  stdinOnce?: boolean;
  tty?: boolean;
}

export type ContainerState = 'created' | 'running' | 'exited';

export interface RtContainer extends ContainerConfig {
  id: string;
  sandboxId: string;
  imageRef: string;
  imageId: string;
  /** The image's busybox release (busybox images: applets differ between releases). */
  busybox?: string;
  createdAt: number;
  startedAt: number;
  finishedAt: number;
  state: ContainerState;
  exitCode: number;
  reason: string;
  message: string;
  proc: Proc | null;
  fs: FileSystem;
  log: ContainerLog;
  /** SIGKILL at this time (a stop's grace period ends); Infinity when not stopping. */
  killAt: number;
  /** The OOM killer fires at this time under the current demand; Infinity when never. */
  oomAt: number;
  loadMilli: number;
  /** The last demand given to the meter (so changes are sent once). */
  cpuMilli: number;
  memKey: string;
  /** When the next exit is expected (Infinity: none within the horizon), and up to when that was worked out. */
  predictedExit: number;
  predictedUntil: number;
  /** While something is attached: what the main process wrote since the attacher last read it. */
  tap: { fd: 1 | 2; text: string }[] | null;
  /** Attach sessions open now. */
  attached: number;
  /** Its command line runs an HTTP client (wget, curl): the kubelet wakes when it next connects out. */
  netUser?: boolean;
  /** When the look-ahead saw it next open a connection to another node (Infinity: not within the horizon). */
  predictedNet?: number;
}

/**
 * What a connection arriving from the network comes to: its answer; no
 * answer ('dropped'); or DNATed to another node's pod, to be forwarded there;
 * null when the pod it was for has no network any more.
 */
export type Accepted = NetOutcome | { k: 'dropped' } | { k: 'forward'; call: NetCall; srcIP: string } | null;

/** A connection from a process here to a pod on another node, waiting for its answer. */
export interface OutboundConn {
  conn: number;
  /** The pod's IP it comes from. */
  srcIP: string;
  call: NetCall;
  openedAt: number;
  /** An iptables DROP took it: it never leaves the node, and the client times out. */
  dropped?: boolean;
  /** The container it is in, and the process that waits. */
  containerId: string;
  proc: Proc;
}

export interface Pull {
  image: string;
  startedAt: number;
  doneAt: number;
  error: { code: 'NotFound' | 'Unknown'; message: string } | null;
}

export interface ImageRecord {
  ref: string;
  sizeBytes: number;
  id: string;
}

export interface ExecResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** How long the command ran. */
  durationMs: number;
  /** It was still running when the timeout came. */
  timedOut: boolean;
}

/** runc sets HOME from /etc/passwd when the environment has none (libcontainer's setupUser): root's, here, after the rest. */
function withHome(env: Record<string, string>): Record<string, string> {
  return env.HOME === undefined ? { ...env, HOME: '/root' } : env;
}

/** An exec with a TTY gets TERM=xterm (containerd's execInternal) after the container's environment; runc's HOME still comes last. */
function withTerm(env: Record<string, string>): Record<string, string> {
  const { HOME, ...rest } = env;
  return { ...rest, TERM: 'xterm', ...(HOME === undefined ? {} : { HOME }) };
}

/** Hands a process its input: text, or null for the end of it. */
function deliver(proc: Proc, input: string | null | undefined, now: number, ctx: ShellContext): void {
  if (input === null) closeInput(proc, now);
  else if (input !== undefined) feedInput(proc, input, now, ctx);
}

/** A process started with its stdin open (`kubectl exec -i`): plain data, kept by the kubelet's server. */
export interface ExecSession {
  containerId: string;
  proc: Proc;
}

/** What a session did up to now: its output in order, its exit, and when it next does anything by itself. */
export interface ExecProgress {
  output: { fd: 1 | 2; text: string }[];
  /** Set once the process has ended (137 when its container went away). */
  exitCode?: number;
  nextAt: number;
}

export interface RuntimeConfig {
  cpuMilli: number;
  podCIDR: string;
  /** The machine's own address (InternalIP): iptables' LOCAL addresses, and the source of masqueraded traffic. */
  nodeIP?: string;
  /** The machine's hostname (hostNetwork pods see it). */
  nodeName?: string;
  bandwidthBytesPerSec: number;
  images: string[];
}

/** What the runtime's advance hands the meter, in time order. */
interface MeterEvent {
  t: number;
  seq: number;
  id: string;
  kind: 'demand' | 'stop';
  demand?: Demand;
}

export class FakeRuntime {
  /** Advanced up to here. */
  at: number;
  readonly sandboxes = new Map<string, Sandbox>();
  readonly containers = new Map<string, RtContainer>();
  readonly images = new Map<string, ImageRecord>();
  readonly pulls: Pull[] = [];
  pullFreeAt = 0;
  readonly usedIPs = new Set<number>();
  lastIP = 1;
  meter: UsageMeter;
  nextId = 1;
  /** The machine is off (node lost): nothing runs. */
  poweredOff = false;
  boots = 1;
  /** Connections to other nodes' pods waiting for an answer, by id; the ones the kubelet has not sent yet. */
  readonly conns = new Map<number, OutboundConn>();
  outbound: OutboundConn[] = [];
  nextConn = 1;
  /** Some container may connect out by itself (see RtContainer.netUser); cleared when none runs. */
  hasNetUsers = false;
  /** Connections this node forwarded for others (NodePort traffic DNATed to another node): id → the original. */
  readonly relays = new Map<number, { from: string; conn: number }>();
  /** The kernel's iptables (kube-proxy's Service rules, the kubelet's KUBE-FIREWALL): gone at power-off. */
  netfilter: Netfilter = newNetfilter();
  /** The kernel's prandom, for -m statistic (a stream of its own, so it draws nothing from the rest). */
  private readonly kernelRng: Rng;
  /** What the CoreDNS processes' caches hold, by container (their actors hand it over: CorednsView). */
  readonly dnsCaches = new Map<string, CorednsState>();
  /** The actors of containers' processes that have connections of their own (CoreDNS's), by container. */
  readonly processes = new Map<string, string>();
  /** A CoreDNS image has been started here: the kubelet looks for its processes after each event. */
  mayRunCoredns = false;
  /** The CoreDNS processes' own randomness (the loadbalance plugin's shuffle). */
  private readonly dnsRng: Rng;

  constructor(
    readonly config: RuntimeConfig,
    readonly seed: number,
    now: number,
  ) {
    this.at = now;
    this.kernelRng = new Rng((seed ^ 0x6e66696c) >>> 0);
    this.dnsRng = new Rng((seed ^ 0x646e7321) >>> 0);
    this.meter = new UsageMeter(config.cpuMilli, SYSTEM_USAGE, now);
    for (const i of config.images) {
      const ref = parseImage(i);
      const img = lookupImage(ref);
      if (img) this.images.set(ref.full, { ref: ref.full, sizeBytes: img.sizeBytes, id: imageDigest(ref) });
    }
  }

  private newId(label: string): string {
    const n = this.nextId++;
    return hex(this.seed + n * 2654435761, `${label}/${n}`) + hex(this.seed ^ n, `${label}#${n}`);
  }

  // ---- time ----------------------------------------------------------------------

  /** Runs every container up to `now`, feeding the meter in time order. */
  advance(now: number): void {
    if (now < this.at) return;
    if (this.poweredOff) {
      this.at = now;
      return;
    }
    const events: MeterEvent[] = [];
    let seq = 0;
    for (const c of this.containers.values()) {
      if (c.state !== 'running' || !c.proc) continue;
      this.runContainer(c, now, (t, kind, demand) => events.push({ t, seq: seq++, id: c.id, kind, demand }));
    }
    events.sort((a, b) => a.t - b.t || a.seq - b.seq);
    for (const e of events) {
      if (e.kind === 'stop') this.meter.stop(e.id, e.t, e.t);
      else this.meter.setDemand(e.id, e.demand!, e.t);
    }
    this.meter.advance(now);
    this.finishPulls(now);
    this.at = now;
  }

  /**
   * What a process of container `c` runs against. `proc` is the process whose
   * connections go out for real; without it (a look-ahead copy) connections to
   * other nodes never answer and nothing is logged by the servers it reaches.
   */
  private shellContext(c: RtContainer, img: CatalogImage, fs: FileSystem, out: ShellContext['out'], proc?: Proc): ShellContext {
    const sb = this.sandboxes.get(c.sandboxId);
    return {
      fs,
      hostname: sb?.hostNetwork ? (this.config.nodeName ?? c.podName) : c.podName,
      podIP: sb?.ip ?? '',
      flavour: img.userland === 'none' ? 'gnu' : img.userland,
      hasCommand: (n) => imageHasCommand(img, n),
      ...(c.busybox ? { busybox: c.busybox } : {}),
      out,
      connect: (call, at) => this.connect(c, call, at, proc),
    };
  }

  // ---- the pod network ------------------------------------------------------------

  /**
   * A process opens a TCP connection: to its own pod (loopback, its own IP)
   * or a pod on this node (the node's bridge) the answer is there at once;
   * to any other address it goes out through the kubelet (OutboundConn).
   */
  private connect(c: RtContainer, call: NetCall, at: number, proc: Proc | undefined): NetOutcome | number {
    if (call.tool === 'ping') return this.echo(c, call, at, proc);
    const sb = this.sandboxes.get(c.sandboxId);
    let srcIP = sb?.ip ?? '';
    let ip = call.http.ip;
    if (sb?.hostNetwork) return this.connectFromHost(c, call, at, proc);
    if (ip.startsWith('127.') || ip === srcIP) return this.serve(c.sandboxId, call, ip.startsWith('127.') ? '127.0.0.1' : srcIP, at, !proc) ?? { k: 'timeout' };
    let dropped = false;
    // Out of the pod's network namespace onto the bridge: the host's iptables see it (PREROUTING, FORWARD,
    // POSTROUTING). The look-ahead leaves them alone (counters, prandom): it only foresees same-node pods.
    if (proc) {
      const v = this.throughIptables(srcIP, call, at);
      // REJECT --reject-with icmp-port-unreachable: connect() fails with ECONNREFUSED at once.
      if (v.verdict === 'REJECT') return { k: 'refused' };
      dropped = v.verdict === 'DROP';
      if (v.dnat) {
        ({ call, srcIP } = v);
        ip = call.http.ip;
        if (ip === sb?.ip) return this.serve(c.sandboxId, call, srcIP, at, false) ?? { k: 'timeout' };
      }
    }
    if (!dropped && inCidr(ip, this.config.podCIDR)) {
      const dst = this.sandboxWithIP(ip, at);
      if (dst) return this.serve(dst.id, call, srcIP, at, !proc) ?? { k: 'timeout' };
      // No pod here has the address: the bridge's ARP goes unanswered, which takes its time (the kubelet's, as for another node's).
    }
    return this.goOut(c, call, srcIP, at, proc, dropped);
  }

  /** The connection leaves the node (through the kubelet): the id the answer will come back under; -1 for a look-ahead. */
  private goOut(c: RtContainer, call: NetCall, srcIP: string, at: number, proc: Proc | undefined, dropped: boolean): number {
    if (!proc) return -1;
    // What the look-ahead foresaw up to here has come: it looks again once the answer is in.
    if (proc === c.proc) this.invalidate(c);
    const o: OutboundConn = { conn: this.nextConn++, srcIP, call, openedAt: at, containerId: c.id, proc, ...(dropped ? { dropped } : {}) };
    this.conns.set(o.conn, o);
    this.outbound.push(o);
    return o.conn;
  }

  /**
   * A process of a hostNetwork pod connects: from the host itself, through
   * nat and filter OUTPUT (Service and NodePort DNAT, the latter on 127.0.0.1
   * too); the host's own addresses reach whatever hostNetwork pod listens.
   */
  private connectFromHost(c: RtContainer, call: NetCall, at: number, proc: Proc | undefined): NetOutcome | number {
    const nodeIP = this.config.nodeIP ?? '';
    let dropped = false;
    if (proc) {
      // The kernel picks the source address: loopback's own for 127.0.0.0/8 (KUBE-FIREWALL drops anything else there).
      const v = this.throughIptables(call.http.ip.startsWith('127.') ? '127.0.0.1' : nodeIP, call, at, 'output');
      if (v.verdict === 'REJECT') return { k: 'refused' };
      dropped = v.verdict === 'DROP';
      call = v.call;
    }
    const ip = call.http.ip;
    if (!dropped && (ip.startsWith('127.') || ip === nodeIP)) {
      const h = this.hostListening(call.http.port, at);
      return h ? (this.serve(h, call, ip.startsWith('127.') ? '127.0.0.1' : nodeIP, at, !proc) ?? { k: 'timeout' }) : { k: 'refused' };
    }
    if (!dropped && inCidr(ip, this.config.podCIDR)) {
      const dst = this.sandboxWithIP(ip, at);
      if (dst) return this.serve(dst.id, call, this.bridgeIP(), at, !proc) ?? { k: 'timeout' };
    }
    return this.goOut(c, call, nodeIP, at, proc, dropped);
  }

  /**
   * An ICMP echo request from a process of `c` (ping). The network stack
   * answers it, whatever listens: the process's own namespace (loopback, its
   * own address), a pod on the bridge, the machine itself (its addresses)
   * at once; anything else leaves through the kubelet, where the far node
   * answers for its pods and itself (acceptEcho). It crosses the host's
   * iptables as ICMP: a rule for all protocols drops or rejects it (a
   * REJECT's port unreachable is no reply to ping), kube-proxy's -p tcp/udp
   * rules do not DNAT it, so a Service's cluster IP leads nowhere. No router
   * lies between a pod and its bridge or its host: the reply keeps its 64.
   */
  private echo(c: RtContainer, call: NetCall, at: number, proc: Proc | undefined): NetOutcome | number {
    const sb = this.sandboxes.get(c.sandboxId);
    if (!sb || sb.state !== 'ready') return { k: 'timeout' };
    const host = !!sb.hostNetwork;
    let ip = call.http.ip;
    let srcIP = host ? (ip.startsWith('127.') ? '127.0.0.1' : (this.config.nodeIP ?? '')) : sb.ip;
    if (ip.startsWith('127.') || ip === srcIP) return { k: 'echo', ttl: DEFAULT_TTL, rttMs: LOOPBACK_RTT_MS };
    let dropped = false;
    if (proc) {
      const v = this.throughIptables(srcIP, call, at, host ? 'output' : 'forward');
      if (v.verdict === 'REJECT') return { k: 'refused' };
      dropped = v.verdict === 'DROP';
      ({ call, srcIP } = v);
      ip = call.http.ip;
    }
    if (!dropped && this.isLocalAddress(ip)) return { k: 'echo', ttl: DEFAULT_TTL, rttMs: host ? LOOPBACK_RTT_MS : BRIDGE_RTT_MS };
    if (!dropped && inCidr(ip, this.config.podCIDR) && this.sandboxWithIP(ip, at)) return { k: 'echo', ttl: DEFAULT_TTL, rttMs: BRIDGE_RTT_MS };
    // Another node's, or an address no pod here has (its ARP fails: an ICMP error, no reply), or nothing routes it.
    return this.goOut(c, call, srcIP, at, proc, dropped);
  }

  /** The hostNetwork sandbox whose server listens on `port` of the node's addresses at `at`, if any. */
  private hostListening(port: number, at: number): string | undefined {
    for (const sb of this.sandboxes.values()) if (sb.hostNetwork && sb.state === 'ready' && sb.readyAt <= at && this.listenerAt(sb.id, port, at)) return sb.id;
    return undefined;
  }

  /**
   * What the server listening on the call's port in sandbox `sandboxId`
   * answers at `at` (a reset when none listens); null when the sandbox has no
   * network. `quiet`: a look-ahead, which leaves no access-log line.
   */
  private serve(sandboxId: string, call: NetCall, clientIP: string, at: number, quiet: boolean): NetOutcome | null {
    const sb = this.sandboxes.get(sandboxId);
    if (!sb || sb.state !== 'ready') return null;
    const found = this.listenerAt(sandboxId, call.http.port, at);
    if (!found) return { k: 'refused' };
    const { c, d } = found;
    // Only a DNS server reads UDP datagrams; anything else listening on the port has a TCP socket there: ICMP port unreachable.
    if (call.dns) {
      if (d.name !== 'coredns' || !d.coredns) return { k: 'refused' };
      const a = corednsQuery(this.dnsCaches.get(c.id), d.coredns, call.dns, { clientIP, podIP: sb.ip, at, rng: () => this.dnsRng.nextU32() });
      if (a.log && !quiet) this.mainOut(c)(at, 1, a.log);
      return { k: 'dns', response: a.response };
    }
    const req: HttpRequestFacts = { method: call.http.method, path: call.http.path, host: call.http.host, userAgent: call.http.userAgent, clientIP };
    const a = this.answerHttp(c, d, call.http.port, req, at, sb);
    if (a.log && !quiet) this.mainOut(c)(at, a.log.fd, a.log.text);
    return { k: 'http', status: a.status, headers: a.headers, body: a.body };
  }

  /** A server's answer to an HTTP request on `port`: CoreDNS's from its process's state, others' from their routes. */
  private answerHttp(c: RtContainer, d: NonNullable<Proc['daemon']>, port: number, req: HttpRequestFacts, at: number, sb: Sandbox): HttpAnswer {
    const dns = d.name === 'coredns' ? corednsHttp(this.dnsCaches.get(c.id), port, req.path) : null;
    if (dns) return { status: dns.status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: dns.body };
    return serveHttp(d, req, at, c.fs, { hostname: c.podName, podIP: sb.ip });
  }

  /** The server listening on `port` in the sandbox at `at`, without running anything (callers may be mid-advance). */
  private listenerAt(sandboxId: string, port: number, at: number): { c: RtContainer; d: NonNullable<Proc['daemon']> } | null {
    for (const c of this.containers.values()) {
      if (c.sandboxId !== sandboxId || c.state !== 'running') continue;
      const d = c.proc?.daemon;
      if (!d || d.stoppingAt !== undefined || !(d.ports ?? []).includes(port)) continue;
      if (at < d.since + (d.listenAfterMs ?? 0)) continue;
      return { c, d };
    }
    return null;
  }

  /**
   * A connection from another node (or this one, for an address no pod here
   * has) reaches pod IP `ip` at `now`: its answer, 'unreachable' when no pod
   * has the address, or null when this pod has no network any more.
   */
  accept(ip: string, call: NetCall, clientIP: string, now: number): Accepted {
    this.advance(now);
    if (call.tool === 'ping') return this.acceptEcho(ip, call, clientIP, now);
    if (ip === this.config.nodeIP) return this.acceptAtNode(call, clientIP, now);
    const sb = this.sandboxWithIP(ip, now);
    return sb ? this.serve(sb.id, call, clientIP, now, false) : { k: 'unreachable' };
  }

  /**
   * An echo request from another node: the machine answers for itself
   * (unless its INPUT rules drop or reject ICMP), a pod here for its address;
   * the pod's reply crosses this machine, which routes it (TTL 63). An
   * address no pod has: host unreachable once the bridge's ARP gives up.
   */
  private acceptEcho(ip: string, call: NetCall, clientIP: string, now: number): Accepted {
    if (ip === this.config.nodeIP) {
      const v = this.throughIptables(clientIP, call, now);
      if (v.verdict === 'REJECT') return { k: 'refused' };
      if (v.verdict === 'DROP') return { k: 'dropped' };
      if (!v.dnat) return { k: 'echo', ttl: DEFAULT_TTL };
      // A rule of one's own DNATs ICMP (kube-proxy's never do).
      if (!inCidr(v.call.http.ip, this.config.podCIDR)) return { k: 'forward', call: v.call, srcIP: v.srcIP };
      ip = v.call.http.ip;
    }
    return this.sandboxWithIP(ip, now) ? { k: 'echo', ttl: DEFAULT_TTL - 1 } : { k: 'unreachable' };
  }

  /**
   * A connection to the machine's own address (a NodePort): PREROUTING
   * DNATs it to an endpoint — a pod here, or on another node, where this node
   * forwards it, masqueraded — or the filter table rejects or drops it. Without
   * a rule for the port, nothing on the host listens there: a reset.
   */
  private acceptAtNode(call: NetCall, clientIP: string, now: number): Accepted {
    const v = this.throughIptables(clientIP, call, now);
    if (v.verdict === 'REJECT') return { k: 'refused' };
    if (v.verdict === 'DROP') return { k: 'dropped' };
    if (!v.dnat) {
      // No rule for the port: a hostNetwork pod's server may listen on it; else the host's reset.
      const h = this.hostListening(call.http.port, now);
      return h ? this.serve(h, call, clientIP, now, false) : { k: 'refused' };
    }
    const to = v.call.http.ip;
    if (!inCidr(to, this.config.podCIDR)) return { k: 'forward', call: v.call, srcIP: v.srcIP };
    const sb = this.sandboxWithIP(to, now);
    return sb ? this.serve(sb.id, v.call, v.srcIP, now, false) : { k: 'unreachable' };
  }

  /**
   * A connection's first packet through this machine's iptables, from a pod on
   * its bridge or from the network (PREROUTING, then INPUT or FORWARD, then
   * POSTROUTING): the verdict, the call as DNAT rewrote it, and the source it
   * leaves with — masqueraded, from the bridge's address to a pod here and
   * from the node's elsewhere.
   */
  private throughIptables(srcIP: string, call: NetCall, at: number, path: 'forward' | 'output' = 'forward'): { verdict: 'ACCEPT' | 'DROP' | 'REJECT'; dnat: boolean; call: NetCall; srcIP: string } {
    // The first packet: a TCP SYN (60 bytes), a DNS query, or an echo request (IP and ICMP headers, then its data).
    const proto = call.tool === 'ping' ? 'icmp' : call.dns ? 'udp' : 'tcp';
    const bytes = call.echo ? 28 + call.echo.size : 60;
    const v = traverse(this.netfilter, path, { src: srcIP, dst: call.http.ip, proto, sport: 0, dport: call.http.port, bytes, now: at }, (a) => this.isLocalAddress(a), () => this.kernelRng.nextU32() >>> 1);
    if (!v.dnat) return { verdict: v.verdict, dnat: false, call, srcIP };
    const to: NetCall = { ...call, http: { ...call.http, ip: v.dst, port: v.dport } };
    const src = !v.masquerade ? srcIP : inCidr(v.dst, this.config.podCIDR) ? this.bridgeIP() : (this.config.nodeIP ?? this.bridgeIP());
    return { verdict: v.verdict, dnat: true, call: to, srcIP: src };
  }

  /** A connection this node forwards (NodePort to another node's endpoint): the id its answer comes back under. */
  relay(from: string, conn: number): number {
    const id = this.nextConn++;
    this.relays.set(id, { from, conn });
    return id;
  }

  /** The connection a forwarded one's answer belongs to (and forgets it). */
  takeRelay(id: number): { from: string; conn: number } | undefined {
    const r = this.relays.get(id);
    this.relays.delete(id);
    return r;
  }

  /** The sandbox whose network has address `ip` at `at`, if any. */
  private sandboxWithIP(ip: string, at: number): Sandbox | undefined {
    for (const s of this.sandboxes.values()) if (s.ip === ip && !s.hostNetwork && s.state === 'ready' && s.readyAt <= at) return s;
    return undefined;
  }

  /** The connections processes opened to other nodes since the last call: the kubelet sends them. */
  takeOutbound(): OutboundConn[] {
    const out = this.outbound;
    this.outbound = [];
    return out;
  }

  /** Connection `conn`'s answer (or its timeout) at `now`: the process that waits on it goes on. Null when none waits any more. */
  connDone(conn: number, outcome: NetOutcome, now: number): OutboundConn | null {
    const o = this.conns.get(conn);
    if (!o) return null;
    this.conns.delete(conn);
    this.advance(now);
    const c = this.containers.get(o.containerId);
    // An echo reply for a pod is routed once more here, from the node's network onto the bridge.
    if (outcome.k === 'echo' && c && !this.sandboxes.get(c.sandboxId)?.hostNetwork) outcome = { ...outcome, ttl: outcome.ttl - 1 };
    if (!c || c.state !== 'running' || !netReply(o.proc, conn, outcome, now)) return null;
    this.invalidate(c);
    return o;
  }

  /** The running containers whose main process is CoreDNS (each has an actor of its own for its API connections). */
  corednsContainers(): RtContainer[] {
    const out: RtContainer[] = [];
    for (const c of this.containers.values()) if (c.state === 'running' && c.proc?.daemon?.name === 'coredns' && c.proc.daemon.stoppingAt === undefined) out.push(c);
    return out;
  }

  /** The earliest instant a container's main process will next connect to another node (Infinity: none foreseen). */
  nextConnectAt(): number {
    let next = Infinity;
    if (this.poweredOff) return next;
    for (const c of this.containers.values()) {
      // A process waiting on its connection opens no other (a ping with requests out goes on sending).
      if (c.state !== 'running' || !c.netUser || !c.proc || (pendingConn(c.proc) !== null && c.proc.wait?.k === 'net')) continue;
      this.predictExit(c);
      next = Math.min(next, c.predictedNet ?? Infinity);
    }
    return next;
  }

  /** Where the main process's output goes: the container's log, and to whoever is attached. */
  private mainOut(c: RtContainer): ShellContext['out'] {
    return (at, fd, text) => {
      c.log.write(at, fd === 1 ? 'stdout' : 'stderr', text);
      c.tap?.push({ fd, text });
    };
  }

  /** What the container's processes want at `t`. */
  private demandOf(c: RtContainer, img: CatalogImage, t: number): Demand {
    const idle = idleOf(img.idle, c.id);
    const p = c.proc!;
    return {
      cpuMilli: idle.cpuMilli + cpuDemand(p, t) + (img.servesLoad ? c.loadMilli : 0),
      memory: { baseBytes: idle.memoryBytes, allocBytes: p.memBytes, rateBytesPerSec: p.memRate, since: p.memSince },
    };
  }

  /**
   * Runs one container to `until`: its steps in order, the OOM killer and the
   * stop's SIGKILL when their time comes; `emit` hears demand changes and the exit.
   */
  private runContainer(c: RtContainer, until: number, emit: (t: number, kind: 'demand' | 'stop', d?: Demand) => void, fs = c.fs, quiet = false): void {
    const img = lookupImage(parseImage(c.imageRef))!;
    const ctx = this.shellContext(c, img, fs, quiet ? () => {} : this.mainOut(c), quiet ? undefined : c.proc!);
    const p = c.proc!;
    let guard = 0;
    while (c.state === 'running' && guard++ < 100_000) {
      const step = nextStepAt(p);
      const jobEnd = Math.min(...p.jobs.filter((j) => j.cpuMilli > 0 && j.endAt > p.at).map((j) => j.endAt), Infinity);
      const next = Math.min(step, jobEnd, c.killAt, c.oomAt);
      if (next > until) {
        run(p, until, ctx);
        this.noteDemand(c, img, until, emit);
        if (p.exit) this.exited(c, p.exit.code, p.exit.at, emit);
        return;
      }
      if (next === c.oomAt && c.oomAt <= step && c.oomAt <= c.killAt) {
        run(p, c.oomAt, ctx);
        if (!p.exit) {
          p.exit = { code: 137, at: c.oomAt };
          c.reason = 'OOMKilled';
        }
      } else if (next === c.killAt && c.killAt <= step) {
        run(p, c.killAt, ctx);
        if (!p.exit) signal(p, 'KILL', c.killAt, ctx);
      } else run(p, next, ctx);
      if (p.exit) return this.exited(c, p.exit.code, p.exit.at, emit);
      this.noteDemand(c, img, Math.max(next, p.at), emit);
    }
  }

  private noteDemand(c: RtContainer, img: CatalogImage, t: number, emit: (t: number, kind: 'demand' | 'stop', d?: Demand) => void): void {
    if (!c.proc || c.proc.exit) return;
    const d = this.demandOf(c, img, t);
    const memKey = `${d.memory.baseBytes}/${d.memory.allocBytes}/${d.memory.rateBytesPerSec}/${d.memory.since}`;
    if (d.cpuMilli === c.cpuMilli && memKey === c.memKey) return;
    c.cpuMilli = d.cpuMilli;
    if (memKey !== c.memKey) {
      c.memKey = memKey;
      const t0 = oomAt(d.memory, c.memoryLimitBytes);
      c.oomAt = t0 === null ? Infinity : Math.max(t0, t);
    }
    emit(t, 'demand', d);
  }

  private exited(c: RtContainer, code: number, at: number, emit: (t: number, kind: 'demand' | 'stop', d?: Demand) => void): void {
    c.state = 'exited';
    c.exitCode = code;
    c.finishedAt = at;
    if (c.reason !== 'OOMKilled') c.reason = code === 0 ? 'Completed' : 'Error';
    c.killAt = Infinity;
    c.oomAt = Infinity;
    emit(at, 'stop');
  }

  /** When the container will next exit by itself, or Infinity (none within the horizon). */
  predictExit(c: RtContainer): number {
    if (c.state !== 'running' || !c.proc) return Infinity;
    if (c.predictedUntil >= this.at && c.predictedExit !== -1) return c.predictedExit;
    // Run a copy ahead, on a copy of the file system, without logging.
    const copy: RtContainer = { ...c, proc: structuredClone(c.proc), fs: cloneFs(c.fs) };
    const horizon = this.at + PREDICT_HORIZON_MS;
    this.runContainer(copy, horizon, () => {}, copy.fs, true);
    // The copy stops at a connection to another node (it gets no answer): the real one opens it then.
    const p = copy.proc;
    c.predictedNet = c.netUser && p && !p.exit && (p.wait?.k === 'net' || p.wait?.k === 'ping') && pendingConn(p) === -1 ? Math.max(p.at, this.at) : Infinity;
    c.predictedExit = copy.state === 'exited' ? copy.finishedAt : Infinity;
    c.predictedUntil = copy.state === 'exited' ? Infinity : horizon;
    return c.predictedExit;
  }

  /** The next instant something happens by itself (a container exits, a sandbox comes up, a pull ends). */
  nextEventAt(): number {
    let next = Infinity;
    if (this.poweredOff) return next;
    for (const c of this.containers.values()) if (c.state === 'running') next = Math.min(next, this.predictExit(c));
    for (const s of this.sandboxes.values()) if (s.readyAt > this.at) next = Math.min(next, s.readyAt);
    for (const p of this.pulls) if (p.doneAt > this.at) next = Math.min(next, p.doneAt);
    return next;
  }

  private invalidate(c: RtContainer): void {
    c.predictedExit = -1;
    c.predictedUntil = -1;
  }

  // ---- sandboxes -------------------------------------------------------------------

  /** RunPodSandbox: the pause container and the pod's network (an IP from the podCIDR; the node's own with hostNetwork). */
  runPodSandbox(podUid: string, name: string, namespace: string, attempt: number, now: number, hostNetwork = false): Sandbox {
    this.advance(now);
    const offset = hostNetwork ? 0 : this.allocateIP();
    const sb: Sandbox = {
      id: this.newId('sandbox'),
      podUid,
      name,
      namespace,
      attempt,
      createdAt: now,
      readyAt: now + SANDBOX_MS,
      state: 'ready',
      ip: hostNetwork ? (this.config.nodeIP ?? '') : offset ? this.ipString(offset) : '',
      ipOffset: offset,
      ...(hostNetwork ? { hostNetwork } : {}),
    };
    this.sandboxes.set(sb.id, sb);
    const pause = lookupImage(parseImage('registry.k8s.io/pause:3.10'))!;
    const idle = idleOf(pause.idle, sb.id);
    this.meter.addPod(podUid, name, namespace, { cpuMilli: idle.cpuMilli, memory: { baseBytes: idle.memoryBytes, allocBytes: 0, rateBytesPerSec: 0, since: now } }, now);
    return sb;
  }

  /** StopPodSandbox: every container in it is killed, the network torn down. */
  stopPodSandbox(id: string, now: number): void {
    this.advance(now);
    const sb = this.sandboxes.get(id);
    if (!sb) return;
    for (const c of this.containers.values()) {
      if (c.sandboxId !== id || c.state !== 'running') continue;
      c.killAt = now;
      this.invalidate(c);
    }
    this.advance(now);
    // advance(now) does not re-run an instant it has reached: finish the kills here.
    for (const c of this.containers.values()) if (c.sandboxId === id && c.state === 'running') this.kill(c, now);
    if (sb.ipOffset) this.usedIPs.delete(sb.ipOffset);
    sb.ipOffset = 0;
    sb.state = 'notready';
    this.meter.removePod(sb.podUid, now);
  }

  removePodSandbox(id: string): void {
    for (const c of [...this.containers.values()]) if (c.sandboxId === id) this.containers.delete(c.id);
    this.sandboxes.delete(id);
  }

  private allocateIP(): number {
    const bits = Number(this.config.podCIDR.split('/')[1] ?? '24');
    const size = 2 ** (32 - bits);
    for (let i = 1; i <= size - 3; i++) {
      const candidate = ((this.lastIP - 2 + i + (size - 3)) % (size - 3)) + 2;
      if (!this.usedIPs.has(candidate)) {
        this.usedIPs.add(candidate);
        this.lastIP = candidate;
        return candidate;
      }
    }
    return 0;
  }

  private ipString(offset: number): string {
    const base = this.config.podCIDR.split('/')[0]!.split('.').map(Number);
    const n = (((base[0]! << 24) | (base[1]! << 16) | (base[2]! << 8) | base[3]!) >>> 0) + offset;
    return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
  }

  // ---- containers ------------------------------------------------------------------

  /** CreateContainer + StartContainer. A program the image lacks fails to start (StartError, 128). */
  startContainer(sandboxId: string, cfg: ContainerConfig, now: number): RtContainer {
    this.advance(now);
    const ref = parseImage(cfg.image);
    const img = lookupImage(ref)!;
    if (img.programs.includes('/coredns')) this.mayRunCoredns = true;
    const content = imageContent(img, ref.tag);
    // CreateContainer and StartContainer answer at once: the process starts now.
    const startedAt = now;
    const c: RtContainer = {
      ...cfg,
      id: this.newId('container'),
      sandboxId,
      imageRef: ref.full,
      imageId: `${ref.repo}@${imageDigest(ref)}`,
      ...(content.busybox ? { busybox: content.busybox } : {}),
      createdAt: now,
      startedAt,
      finishedAt: -1,
      state: 'running',
      exitCode: 0,
      reason: '',
      message: '',
      proc: null,
      fs: new FileSystem({ ...content.files, ...cfg.mounts }, BASE_DIRS),
      log: new ContainerLog(),
      killAt: Infinity,
      oomAt: Infinity,
      loadMilli: cpuLoadMilli(cfg.annotations),
      cpuMilli: -1,
      memKey: '',
      predictedExit: -1,
      predictedUntil: -1,
      tap: null,
      attached: 0,
    };
    this.containers.set(c.id, c);
    const argv = processArgv(img, cfg.command, cfg.args);
    c.netUser = argv.some((a) => /\b(?:wget|curl|nslookup|dig|host|getent|ping)\b/.test(a));
    if (c.netUser) this.hasNetUsers = true;
    const exe = argv[0];
    if (exe === undefined || !imageHasCommand(img, exe)) {
      // runc cannot exec the entrypoint: the container never runs.
      c.state = 'exited';
      c.exitCode = 128;
      c.reason = 'StartError';
      c.message =
        exe === undefined
          ? 'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: no command specified: unknown'
          : `failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: "${exe}": executable file not found in $PATH: unknown`;
      c.startedAt = 0;
      c.finishedAt = startedAt;
      return c;
    }
    // containerd gives a container with a TTY TERM=xterm, before the image's environment (containerSpec).
    const env = withHome({ ...(cfg.tty ? { TERM: 'xterm' } : {}), ...content.env, HOSTNAME: cfg.podName, ...cfg.env });
    const flavour = img.userland === 'busybox' ? 'busybox' : 'gnu';
    // With stdin open a shell waits for input instead of reading an empty one and exiting.
    c.proc = cfg.stdin ? spawnWithInput(argv, env, startedAt, flavour, !!cfg.tty) : spawn(argv, env, startedAt, flavour);
    const idle = idleOf(img.idle, c.id);
    const demand: Demand = { cpuMilli: idle.cpuMilli, memory: { baseBytes: idle.memoryBytes, allocBytes: 0, rateBytesPerSec: 0, since: startedAt } };
    c.cpuMilli = demand.cpuMilli;
    this.meter.start({ id: c.id, podUid: cfg.podUid, name: cfg.name, startedAt, stopAt: Infinity, demand, requestMilli: cfg.cpuRequestMilli, limitMilli: cfg.cpuLimitMilli }, now);
    return c;
  }

  /**
   * StopContainer with a timeout: the image's STOPSIGNAL now, SIGKILL when the
   * timeout runs out (at once for 0). The exit happens as the process decides.
   */
  stopContainer(id: string, timeoutMs: number, now: number): void {
    this.advance(now);
    const c = this.containers.get(id);
    if (!c || c.state !== 'running' || !c.proc) return;
    if (c.killAt <= now + timeoutMs && c.killAt !== Infinity) return;
    const img = lookupImage(parseImage(c.imageRef))!;
    if (timeoutMs <= 0) return this.kill(c, now);
    signal(
      c.proc,
      img.stopSignal as Signal,
      now,
      this.shellContext(c, img, c.fs, this.mainOut(c)),
    );
    c.killAt = now + timeoutMs;
    this.invalidate(c);
    if (c.proc.exit) this.exitNow(c);
  }

  private kill(c: RtContainer, at: number): void {
    if (!c.proc || c.state !== 'running') return;
    c.proc.exit = { code: 137, at };
    this.exitNow(c);
  }

  private exitNow(c: RtContainer): void {
    const p = c.proc!;
    this.exited(c, p.exit!.code, p.exit!.at, (t) => this.meter.stop(c.id, t, this.at));
  }

  removeContainer(id: string): void {
    this.containers.delete(id);
  }

  /** The pod annotations changed: containers that serve the load annotation get the new load. */
  setLoad(podUid: string, annotations: Record<string, string> | undefined, now: number): void {
    this.advance(now);
    const load = cpuLoadMilli(annotations);
    for (const c of this.containers.values()) {
      if (c.podUid !== podUid || c.state !== 'running' || c.loadMilli === load) continue;
      c.loadMilli = load;
      const img = lookupImage(parseImage(c.imageRef))!;
      this.noteDemand(c, img, now, (t, _k, d) => this.meter.setDemand(c.id, d!, t));
    }
  }

  /** ListContainers for a pod, oldest first. */
  podContainers(podUid: string): RtContainer[] {
    return [...this.containers.values()].filter((c) => c.podUid === podUid).sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  }

  podSandboxes(podUid: string): Sandbox[] {
    return [...this.sandboxes.values()].filter((s) => s.podUid === podUid).sort((a, b) => a.createdAt - b.createdAt);
  }

  /** The running container an exec goes into, its image and the environment its main process exported; or why not. */
  private execTarget(id: string, argv: readonly string[], now: number): { c: RtContainer; img: CatalogImage; env: Record<string, string> } | { error: string } {
    this.advance(now);
    const c = this.containers.get(id);
    if (!c || c.state !== 'running' || !c.proc) return { error: `container not running (${id})` };
    const img = lookupImage(parseImage(c.imageRef))!;
    if (!argv[0] || !imageHasCommand(img, argv[0])) return { error: this.notFoundError(argv[0] ?? '') };
    const env: Record<string, string> = {};
    for (const k of c.proc.exported) if (c.proc.vars[k] !== undefined) env[k] = c.proc.vars[k]!;
    return { c, img, env };
  }

  /** ExecSync: runs `argv` in the container's namespaces; its file writes are the container's. */
  exec(id: string, argv: readonly string[], now: number, timeoutMs: number): ExecResult | { error: string } {
    const found = this.execTarget(id, argv, now);
    if ('error' in found) return found;
    const { c, img, env } = found;
    let stdout = '';
    let stderr = '';
    const ctx = this.shellContext(c, img, c.fs, (_at, fd, text) => {
      if (fd === 1) stdout += text;
      else stderr += text;
    });
    const p = spawn(argv, env, now, img.userland === 'busybox' ? 'busybox' : 'gnu');
    // A connection to another node never answers in time here (probes and hooks wait for nothing): it times out.
    run(p, now + timeoutMs, ctx);
    this.invalidate(c);
    if (!p.exit) return { stdout, stderr, exitCode: -1, durationMs: timeoutMs, timedOut: true };
    return { stdout, stderr, exitCode: p.exit.code, durationMs: p.exit.at - now, timedOut: false };
  }

  /**
   * Exec for `kubectl exec` without stdin: ExecSync's answer when the command
   * needs nothing from the network, else the session it becomes once it
   * connects to another node (the kubelet steps it in virtual time, as it
   * does a session with stdin, and answers when it ends), with what it has
   * written so far.
   */
  startExec(id: string, argv: readonly string[], now: number, timeoutMs: number): ExecResult | { error: string } | { session: ExecSession; stdout: string; stderr: string } {
    const found = this.execTarget(id, argv, now);
    if ('error' in found) return found;
    const { c, img, env } = found;
    let stdout = '';
    let stderr = '';
    const out: ShellContext['out'] = (_at, fd, text) => {
      if (fd === 1) stdout += text;
      else stderr += text;
    };
    const p = spawn(argv, env, now, img.userland === 'busybox' ? 'busybox' : 'gnu');
    // Up to now for real (a connection opened now goes out now), then ahead as ExecSync runs.
    run(p, now, this.shellContext(c, img, c.fs, out, p));
    if (!p.exit && pendingConn(p) === null) run(p, now + timeoutMs, this.shellContext(c, img, c.fs, out));
    this.invalidate(c);
    const session = { containerId: id, proc: p };
    if (pendingConn(p) !== null && (pendingConn(p)! >= 0 || unblockNet(p))) return { session, stdout, stderr };
    if (!p.exit) return { stdout, stderr, exitCode: -1, durationMs: timeoutMs, timedOut: true };
    return { stdout, stderr, exitCode: p.exit.code, durationMs: p.exit.at - now, timedOut: false };
  }

  /** Exec with stdin attached: the session, or why the process cannot start (ExecSync's error). */
  openExec(id: string, argv: readonly string[], now: number, tty: boolean): ExecSession | { error: string } {
    const found = this.execTarget(id, argv, now);
    if ('error' in found) return found;
    const { img, env } = found;
    return { containerId: id, proc: spawnWithInput(argv, tty ? withTerm(env) : env, now, img.userland === 'busybox' ? 'busybox' : 'gnu', tty) };
  }

  /**
   * Runs a session up to `now`, first handing it `input` (text, or null for
   * the end of input). Its processes die with their container.
   */
  stepExec(s: ExecSession, now: number, input?: string | null): ExecProgress {
    this.advance(now);
    const output: ExecProgress['output'] = [];
    const c = this.containers.get(s.containerId);
    if (!c || c.state !== 'running') {
      if (!s.proc.exit) s.proc.exit = { code: 137, at: now };
      return { output, exitCode: s.proc.exit.code, nextAt: Infinity };
    }
    const img = lookupImage(parseImage(c.imageRef))!;
    const ctx = this.shellContext(
      c,
      img,
      c.fs,
      (_at, fd, text) => {
        const last = output[output.length - 1];
        if (last && last.fd === fd) last.text += text;
        else output.push({ fd, text });
      },
      s.proc,
    );
    deliver(s.proc, input, now, ctx);
    run(s.proc, now, ctx);
    this.invalidate(c);
    return { output, ...(s.proc.exit ? { exitCode: s.proc.exit.code } : {}), nextAt: nextStepAt(s.proc) };
  }

  /** Attach: from now on the main process's output is kept for the attacher too. False when the container is not running. */
  attach(id: string, now: number): boolean {
    this.advance(now);
    const c = this.containers.get(id);
    if (!c || c.state !== 'running' || !c.proc) return false;
    c.attached++;
    c.tap ??= [];
    return true;
  }

  /**
   * Input for the main process's stdin (null: the attacher closed it), then
   * what it wrote since the last read; `exited` once the container has stopped.
   */
  attachStep(id: string, now: number, input?: string | null): ExecProgress {
    this.advance(now);
    const c = this.containers.get(id);
    if (!c) return { output: [], exitCode: 0, nextAt: Infinity };
    if (input !== undefined && c.state === 'running' && c.proc && c.stdin) {
      const img = lookupImage(parseImage(c.imageRef))!;
      deliver(c.proc, input, now, this.shellContext(c, img, c.fs, this.mainOut(c), c.proc));
      this.invalidate(c);
      // The input's effects happen now.
      this.advance(now);
    }
    const output = c.tap ?? [];
    if (c.tap) c.tap = [];
    // An attach has no exit code of its own: the stream just ends with the process.
    if (c.state !== 'running' || !c.proc) return { output, exitCode: 0, nextAt: Infinity };
    return { output, nextAt: nextStepAt(c.proc) };
  }

  /** The attacher went away: with stdinOnce its leaving closes the container's stdin. */
  detach(id: string, now: number): void {
    const c = this.containers.get(id);
    if (!c) return;
    c.attached = Math.max(0, c.attached - 1);
    if (c.attached === 0) c.tap = null;
    if (c.stdinOnce && c.state === 'running' && c.proc) {
      this.advance(now);
      closeInput(c.proc, now);
      this.invalidate(c);
    }
  }

  /** A session's client went away: its process is killed (SIGKILL: no handlers run). */
  closeExec(s: ExecSession, now: number): void {
    if (!s.proc.exit) s.proc.exit = { code: 137, at: now };
  }

  private notFoundError(exe: string): string {
    return `failed to exec in container: failed to start exec "${this.newId('exec')}": OCI runtime exec failed: exec failed: unable to start container process: exec: "${exe}": executable file not found in $PATH: unknown`;
  }

  /**
   * What the kubelet's HTTP GET to the pod's IP (a probe, a hook) answers: the
   * status, or null when nothing listens on the port. It comes from the node's
   * end of the pod bridge, and servers log it like any request.
   */
  httpGet(sandboxId: string, port: number, path: string, now: number): number | null {
    this.advance(now);
    const sb = this.sandboxes.get(sandboxId);
    if (!sb || sb.state !== 'ready') return null;
    const f = this.listenerAt(sandboxId, port, now);
    if (!f) return null;
    const req: HttpRequestFacts = { method: 'GET', path, host: `${sb.ip}:${port}`, userAgent: KUBE_PROBE_AGENT, clientIP: this.bridgeIP() };
    const a = this.answerHttp(f.c, f.d, port, req, now, sb);
    if (a.log) this.mainOut(f.c)(now, a.log.fd, a.log.text);
    return a.status;
  }

  /** The machine's own addresses (addrtype LOCAL): its InternalIP, the bridge's, loopback. */
  isLocalAddress(ip: string): boolean {
    return ip.startsWith('127.') || ip === this.config.nodeIP || ip === this.bridgeIP();
  }

  /** The node's address on the pod bridge (cni0): the podCIDR's first address. */
  bridgeIP(): string {
    return this.ipString(1);
  }

  /** Whether something in the pod accepts TCP connections on `port`. */
  tcpOpen(sandboxId: string, port: number, now: number): boolean {
    this.advance(now);
    const sb = this.sandboxes.get(sandboxId);
    return !!sb && sb.state === 'ready' && this.listenerAt(sandboxId, port, now) !== null;
  }

  // ---- images ----------------------------------------------------------------------

  hasImage(image: string): boolean {
    return this.images.has(parseImage(image).full);
  }

  /** PullImage on the node's serialized puller: starts (or joins) a pull; it completes at `doneAt`. */
  pullImage(image: string, now: number): Pull {
    this.advance(now);
    this.finishPulls(now);
    const pending = this.pulls.find((p) => p.image === image);
    if (pending) return pending;
    const ref = parseImage(image);
    const r = resolveImage(ref);
    const start = Math.max(now, this.pullFreeAt);
    const ms = !r.ok ? RESOLVE_FAIL_MS : this.images.has(ref.full) ? MANIFEST_CHECK_MS : Math.ceil((r.image.sizeBytes / this.config.bandwidthBytesPerSec) * 1000);
    const p: Pull = { image, startedAt: start, doneAt: start + ms, error: r.ok ? null : { code: r.code, message: r.message } };
    this.pullFreeAt = p.doneAt;
    this.pulls.push(p);
    return p;
  }

  /** Pulls that have finished by `now` leave the queue; good ones are in the image store. */
  finishPulls(now: number): Pull[] {
    const done: Pull[] = [];
    for (let i = 0; i < this.pulls.length;) {
      const p = this.pulls[i]!;
      if (p.doneAt > now) {
        i++;
        continue;
      }
      if (!p.error) {
        const ref = parseImage(p.image);
        this.images.set(ref.full, { ref: ref.full, sizeBytes: lookupImage(ref)!.sizeBytes, id: imageDigest(ref) });
      }
      this.pulls.splice(i, 1);
      done.push(p);
    }
    return done;
  }

  // ---- the machine -------------------------------------------------------------------

  /** The node is lost: every process stops where it is (the kubelet is gone too). */
  powerOff(now: number): void {
    this.advance(now);
    for (const c of this.containers.values()) {
      if (c.state !== 'running') continue;
      c.state = 'exited';
      c.exitCode = 255;
      c.reason = 'Unknown';
      c.finishedAt = now;
      c.proc = null;
    }
    for (const s of this.sandboxes.values()) {
      s.state = 'notready';
      s.ipOffset = 0;
    }
    this.usedIPs.clear();
    // The kernel's tables are memory: the next boot starts with none, until the kubelet and kube-proxy write them again.
    this.netfilter = newNetfilter();
    // The node's sockets die with it.
    this.conns.clear();
    this.relays.clear();
    this.dnsCaches.clear();
    // Their processes' actors went with the machine (the fault removes them).
    this.processes.clear();
    this.outbound = [];
    this.pulls.length = 0;
    this.pullFreeAt = 0;
    this.poweredOff = true;
  }

  /** The machine boots again: what was on disk (images, logs, dead containers) is still there; cgroups start afresh. */
  powerOn(now: number): void {
    if (!this.poweredOff) return;
    this.poweredOff = false;
    this.boots++;
    this.at = now;
    this.meter = new UsageMeter(this.config.cpuMilli, SYSTEM_USAGE, now);
  }
}

function cloneFs(fs: FileSystem): FileSystem {
  const copy = new FileSystem();
  for (const [k, v] of Object.entries(fs.files)) copy.files[k] = v.map((x) => ({ ...x }));
  return copy;
}

/** A memory limit in bytes (Infinity without one). */
export function bytesLimit(v: string | number | undefined): number {
  if (v === undefined) return Infinity;
  const q = parseQuantity(v);
  return q.ok && q.quantity.nanos > 0n ? Number(q.quantity.nanos / 1_000_000_000n) : Infinity;
}

registerClass('FakeRuntime', FakeRuntime);
registerClass('FileSystem', FileSystem);
registerClass('ContainerLog', ContainerLog);
