// The kubelet's HTTPS server on port 10250 (pkg/kubelet/server/server.go),
// reached over the simulated network at the node's actor id with HttpRequest
// messages like the API server's: /healthz, /metrics/resource,
// /containerLogs/{namespace}/{pod}/{container} (with follow streamed as
// chunks until the container stops or the client hangs up) and
// /exec/{namespace}/{pod}/{container}?command=… and /attach/… . Exec upstream
// is a SPDY or WebSocket stream; here an exec without stdin is one request
// whose answer is JSON {stdout, stderr, exitCode} — at once, or for a command
// that takes its virtual time (or waits on the network) a head at once and the
// JSON as the body when it ends; for a command that cannot start, an error — and one
// with stdin (input=1) is a stream both ways, framed by channel
// (http/execStream): stdin in as HttpData, stdout and stderr out as chunks
// while the process runs, then the error channel's Status with its exit code.
// Attach is such a stream to the container's main process. Authentication
// and authorization of callers (the kubelet's webhook authorizer) are not
// simulated.
import type { ActorContext } from '../../sim/kernel';
import type { ActorId } from '../../sim/actor';
import { registerClass } from '../../sim/serial';
import type { ApiRequest, ApiResponse } from '../../apiserver/types';
import { httpMsg, queryValue, type HttpDataMsg, type HttpRequestMsg } from '../../apiserver/http/messages';
import { CLOSE_STDIN, ERROR, EXEC_CONTENT_TYPE, EXEC_PROTOCOL, exitStatus, frame, STDERR, STDIN, STDOUT, unframe } from '../../apiserver/http/execStream';
import { parseRfc3339 } from '../../apiserver/http/time';
import type { Pod } from '../../scheduler/framework/api';
import type { Kubelet } from '../kubelet';
import { ContainerLog, type LogOptions } from '../runtime/logs';
import type { ExecSession, RtContainer } from '../runtime/runtime';
import { nextStepAt, type Proc } from '../runtime/shell/interp';
import { runtimeChanged } from '../pod/podWorkers';
import { statusOf } from '../status/statusManager';
import { PROMETHEUS_TEXT } from './prometheus';
import { resourceMetricsText } from './resourceMetrics';

export { EXEC_CONTENT_TYPE };

/** How often a followed log is checked for new lines. */
const FOLLOW_POLL_MS = 1000;
/** An exec command runs at most this long. */
const EXEC_TIMEOUT_MS = 5 * 60_000;

const text = (status: number, body: string, contentType = 'text/plain; charset=utf-8'): ApiResponse => ({ status, headers: { 'content-type': contentType }, body });

interface Follow {
  id: number;
  client: ActorId;
  reqId: number;
  containerId: string;
  /** Lines after this time are new. */
  sentUntil: number;
  opts: LogOptions;
}

/**
 * An exec with stdin, or an attach: a stream both ways to a process — the
 * exec'd one, or (attach) the container's main process.
 */
interface Stream {
  client: ActorId;
  reqId: number;
  containerId: string;
  /** The exec'd process; null for an attach. */
  exec: ExecSession | null;
  /** The exec's command, as the error channel's Status names it. */
  argv: string[];
  /** The client sends stdin (an attach may only watch). */
  stdin: boolean;
  /** A terminal has one output stream: stderr goes with stdout. */
  tty: boolean;
  /** The timer of the process's next step of its own, if any, and when it fires. */
  timer: number | null;
  timerAt: number;
  /**
   * An exec without stdin that waits on the network: no stream is upgraded;
   * the head went at once, and its output is kept and sent whole as the body
   * (ExecSync's JSON) when it ends.
   */
  collect?: { stdout: string; stderr: string };
}

/** A stream's container is checked this often for having gone away. */
const SESSION_POLL_MS = 1000;

interface PendingExec {
  client: ActorId;
  reqId: number;
  response: ApiResponse;
}

export class KubeletServer {
  readonly follows = new Map<number, Follow>();
  readonly execs = new Map<number, PendingExec>();
  readonly streams = new Map<number, Stream>();
  private nextId = 1;

  serve(k: Kubelet, ctx: ActorContext, from: ActorId, m: HttpRequestMsg): void {
    const res = this.route(k, ctx, from, m);
    if (res) ctx.send(from, httpMsg.response(m.reqId, res));
  }

  private route(k: Kubelet, ctx: ActorContext, from: ActorId, m: HttpRequestMsg): ApiResponse | null {
    const req = m.request;
    const path = req.path.replace(/\/+$/, '') || '/';
    if (path === '/healthz') return text(200, 'ok');
    if (path === '/metrics/resource') return req.method === 'GET' ? text(200, resourceMetricsText(k.runtime.meter, ctx.now), PROMETHEUS_TEXT) : text(405, 'Method Not Allowed\n');
    const logs = /^\/containerLogs\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(path);
    if (logs) return this.containerLogs(k, ctx, from, m, logs[1]!, logs[2]!, logs[3]!);
    const exec = /^\/exec\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(path);
    if (exec) return this.exec(k, ctx, from, m, exec[1]!, exec[2]!, exec[3]!);
    const attach = /^\/attach\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(path);
    if (attach) return this.attach(k, ctx, from, m, attach[1]!, attach[2]!, attach[3]!);
    return text(404, '404 page not found\n');
  }

  private findPod(k: Kubelet, ns: string, name: string): Pod | undefined {
    return k.pods.store.get(`${ns}/${name}`) as Pod | undefined;
  }

  /** validateContainerLogStatus: the instance whose log to read, or the error text. */
  private logContainer(k: Kubelet, pod: Pod, name: string, previous: boolean, now: number): RtContainer | string {
    const w = k.workers.get(pod.metadata.uid!);
    const status = (w ? statusOf(k, w, now) : pod.status) as { containerStatuses?: CStatus[]; initContainerStatuses?: CStatus[] } | undefined;
    const cs = [...(status?.containerStatuses ?? []), ...(status?.initContainerStatuses ?? [])].find((s) => s.name === name);
    const podName = pod.metadata.name!;
    if (!cs) return `container "${name}" in pod "${podName}" is not available`;
    const last = cs.lastState?.terminated;
    let id: string | undefined;
    if (previous) {
      if (!last?.containerID) return `previous terminated container "${name}" in pod "${podName}" not found`;
      id = last.containerID;
    } else if (cs.state.running) id = cs.containerID;
    else if (cs.state.terminated) {
      id = cs.state.terminated.containerID || last?.containerID;
      if (!id) return `container "${name}" in pod "${podName}" is terminated`;
    } else if (last) {
      if (!last.containerID) return `container "${name}" in pod "${podName}" is terminated`;
      id = last.containerID;
    } else if (cs.state.waiting) {
      const reason = cs.state.waiting.reason;
      if (reason === 'ErrImagePull') return `container "${name}" in pod "${podName}" is waiting to start: image can't be pulled`;
      if (reason === 'ImagePullBackOff') return `container "${name}" in pod "${podName}" is waiting to start: trying and failing to pull image`;
      return `container "${name}" in pod "${podName}" is waiting to start: ${reason}`;
    } else return `container "${name}" in pod "${podName}" is waiting to start - no logs yet`;
    const c = k.runtime.containers.get((id ?? '').replace(/^containerd:\/\//, ''));
    return c ?? `container "${name}" in pod "${podName}" is not available`;
  }

  private containerLogs(k: Kubelet, ctx: ActorContext, from: ActorId, m: HttpRequestMsg, ns: string, podName: string, name: string): ApiResponse | null {
    const req = m.request;
    const pod = this.findPod(k, ns, podName);
    if (!pod) return text(404, `pod "${podName}" does not exist\n`);
    if (![...(pod.spec.initContainers ?? []), ...pod.spec.containers].some((c) => c.name === name)) return text(404, `container "${name}" not found in pod "${podName}"\n`);
    k.runtime.advance(ctx.now);
    const found = this.logContainer(k, pod, name, queryValue(req.query, 'previous') === 'true', ctx.now);
    if (typeof found === 'string') return text(400, found);
    const opts = logOptions(req, ctx.now);
    const lines = found.log.select(ctx.now, opts);
    const body = ContainerLog.render(lines, opts);
    const follow = queryValue(req.query, 'follow') === 'true' && found.state === 'running';
    if (!follow) return text(200, body);
    ctx.send(from, httpMsg.response(m.reqId, text(200, ''), true));
    if (body) ctx.send(from, httpMsg.chunk(m.reqId, body));
    const f: Follow = { id: this.nextId++, client: from, reqId: m.reqId, containerId: found.id, sentUntil: ctx.now, opts: { ...opts, tailLines: undefined, since: undefined } };
    this.follows.set(f.id, f);
    ctx.setTimer(FOLLOW_POLL_MS, 'serve', { follow: f.id });
    return null;
  }

  private exec(k: Kubelet, ctx: ActorContext, from: ActorId, m: HttpRequestMsg, ns: string, podName: string, name: string): ApiResponse | null {
    const req = m.request;
    const pod = this.findPod(k, ns, podName);
    if (!pod) return text(404, `pod "${podName}" does not exist\n`);
    const cmdv = req.query['command'];
    const argv = Array.isArray(cmdv) ? cmdv : cmdv !== undefined ? [cmdv] : [];
    const rc = k.runtime
      .podContainers(pod.metadata.uid!)
      .filter((c) => c.name === name && c.state === 'running')
      .pop();
    if (!rc) return text(404, `container not found ("${name}")`);
    if (queryValue(req.query, 'input') === '1') return this.openSession(k, ctx, from, m, rc.id, argv, queryValue(req.query, 'tty') === '1');
    const r = k.runtime.startExec(rc.id, argv, ctx.now, EXEC_TIMEOUT_MS);
    if ('session' in r) {
      // The head goes now (the connection is up); the answer follows as the body when the command ends.
      execHead(ctx, from, m.reqId);
      this.open(k, ctx, { client: from, reqId: m.reqId, containerId: rc.id, exec: r.session, argv, stdin: false, tty: false, timer: null, timerAt: Infinity, collect: { stdout: r.stdout, stderr: r.stderr } });
      return null;
    }
    const res = 'error' in r ? text(500, `error executing command in container: ${r.error}`) : text(200, JSON.stringify({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode }), EXEC_CONTENT_TYPE);
    const ms = 'error' in r ? 0 : r.durationMs;
    if (ms <= 0) return res;
    // The command takes its time: the head now, the answer as the body when it has finished.
    if (res.status === 200) execHead(ctx, from, m.reqId);
    const id = this.nextId++;
    this.execs.set(id, { client: from, reqId: m.reqId, response: res });
    ctx.setTimer(ms, 'serve', { exec: id });
    return null;
  }

  private openSession(k: Kubelet, ctx: ActorContext, from: ActorId, m: HttpRequestMsg, containerId: string, argv: string[], tty: boolean): ApiResponse | null {
    const exec = k.runtime.openExec(containerId, argv, ctx.now, tty);
    if ('error' in exec) return text(500, `error executing command in container: ${exec.error}`);
    this.open(k, ctx, { client: from, reqId: m.reqId, containerId, exec, argv, stdin: true, tty, timer: null, timerAt: Infinity });
    return null;
  }

  /** Attach (the kubelet's streaming server's attach): the container's main process, as it runs. */
  private attach(k: Kubelet, ctx: ActorContext, from: ActorId, m: HttpRequestMsg, ns: string, podName: string, name: string): ApiResponse | null {
    const pod = this.findPod(k, ns, podName);
    if (!pod) return text(404, `pod "${podName}" does not exist\n`);
    const rc = k.runtime
      .podContainers(pod.metadata.uid!)
      .filter((c) => c.name === name && c.state === 'running')
      .pop();
    if (!rc || !k.runtime.attach(rc.id, ctx.now)) return text(404, `container not found ("${name}")`);
    const q = (key: string) => queryValue(m.request.query, key) === '1';
    this.open(k, ctx, { client: from, reqId: m.reqId, containerId: rc.id, exec: null, argv: [], stdin: q('input'), tty: q('tty'), timer: null, timerAt: Infinity });
    return null;
  }

  private open(k: Kubelet, ctx: ActorContext, s: Stream): void {
    const id = this.nextId++;
    this.streams.set(id, s);
    if (!s.collect) upgraded(ctx, s.client, s.reqId);
    this.step(k, ctx, id, s, undefined);
  }

  /** A process got the answer it waited for from the network: the stream that follows it goes on. */
  resumed(k: Kubelet, ctx: ActorContext, proc: Proc, containerId: string): void {
    for (const [id, s] of [...this.streams]) {
      if (s.exec ? s.exec.proc === proc : s.containerId === containerId) this.step(k, ctx, id, s, undefined);
    }
  }

  /** stdin from the client, on an open stream. */
  data(k: Kubelet, ctx: ActorContext, from: ActorId, m: HttpDataMsg): void {
    for (const [id, s] of this.streams) {
      if (s.client !== from || s.reqId !== m.reqId) continue;
      const { channel, data } = unframe(m.chunk);
      if (m.chunk === CLOSE_STDIN) this.step(k, ctx, id, s, null);
      else if (channel === STDIN) this.step(k, ctx, id, s, data);
      return;
    }
  }

  /** Runs the process to now (with `input`), sends what it wrote, and ends the stream when it has exited. */
  private step(k: Kubelet, ctx: ActorContext, id: number, s: Stream, input: string | null | undefined): void {
    const p = s.exec ? k.runtime.stepExec(s.exec, ctx.now, input) : k.runtime.attachStep(s.containerId, ctx.now, s.stdin ? input : undefined);
    // Input can end a container's process (an attached shell's exit, an exec'd kill 1).
    if (input !== undefined) this.changed(k, ctx, s.containerId);
    if (s.collect) for (const o of p.output) s.collect[o.fd === 1 ? 'stdout' : 'stderr'] += o.text;
    else sendOutput(ctx, s.client, s.reqId, s.tty, p.output);
    if (p.exitCode !== undefined) {
      this.streams.delete(id);
      if (s.timer !== null) ctx.cancelTimer(s.timer);
      if (s.collect) {
        ctx.send(s.client, httpMsg.chunk(s.reqId, JSON.stringify({ ...s.collect, exitCode: p.exitCode })));
        ctx.send(s.client, httpMsg.end(s.reqId));
        return;
      }
      if (!s.exec) k.runtime.detach(s.containerId, ctx.now);
      ctx.send(s.client, httpMsg.chunk(s.reqId, frame(ERROR, JSON.stringify(exitStatus(p.exitCode, s.argv)))));
      ctx.send(s.client, httpMsg.end(s.reqId));
      return;
    }
    // Wake for the process's next step, or at the latest to see whether its container is still there.
    const at = Math.min(p.nextAt, ctx.now + SESSION_POLL_MS);
    if (s.timer !== null && s.timerAt === at) return;
    if (s.timer !== null) ctx.cancelTimer(s.timer);
    s.timer = ctx.setTimer(Math.max(0, at - ctx.now), 'serve', { stream: id });
    s.timerAt = at;
  }

  /** The client hung up: an exec'd process is killed, as a broken stream kills it; an attacher detaches. */
  private close(k: Kubelet, ctx: ActorContext, id: number, s: Stream): void {
    this.streams.delete(id);
    if (s.timer !== null) ctx.cancelTimer(s.timer);
    if (s.exec) return k.runtime.closeExec(s.exec, ctx.now);
    k.runtime.detach(s.containerId, ctx.now);
    // With stdinOnce the attacher's leaving ends the shell's input.
    this.changed(k, ctx, s.containerId);
  }

  /** Input may have ended a container's process where the runtime had predicted nothing: its pod syncs at the next relist. */
  private changed(k: Kubelet, ctx: ActorContext, containerId: string): void {
    const c = k.runtime.containers.get(containerId);
    if (c) runtimeChanged(k, ctx, c.podUid);
  }

  timer(k: Kubelet, ctx: ActorContext, data: unknown): void {
    const d = data as { follow?: number; exec?: number; stream?: number };
    if (d.stream !== undefined) {
      const st = this.streams.get(d.stream);
      if (!st) return;
      st.timer = null;
      st.timerAt = Infinity;
      return this.step(k, ctx, d.stream, st, undefined);
    }
    if (d.exec !== undefined) {
      const e = this.execs.get(d.exec);
      if (!e) return;
      this.execs.delete(d.exec);
      if (e.response.status !== 200) return ctx.send(e.client, httpMsg.response(e.reqId, e.response));
      ctx.send(e.client, httpMsg.chunk(e.reqId, e.response.body));
      ctx.send(e.client, httpMsg.end(e.reqId));
      return;
    }
    const f = d.follow !== undefined ? this.follows.get(d.follow) : undefined;
    if (!f) return;
    k.runtime.advance(ctx.now);
    const c = k.runtime.containers.get(f.containerId);
    const lines = c ? c.log.select(ctx.now, f.opts, f.sentUntil) : [];
    f.sentUntil = ctx.now;
    const body = ContainerLog.render(lines, f.opts);
    if (body) ctx.send(f.client, httpMsg.chunk(f.reqId, body));
    if (!c || c.state !== 'running') {
      // The container stopped: `kubectl logs -f` returns.
      this.follows.delete(f.id);
      ctx.send(f.client, httpMsg.end(f.reqId));
      return;
    }
    ctx.setTimer(FOLLOW_POLL_MS, 'serve', { follow: f.id });
  }

  cancel(k: Kubelet, ctx: ActorContext, from: ActorId, reqId: number): void {
    for (const [id, f] of this.follows) if (f.client === from && f.reqId === reqId) this.follows.delete(id);
    for (const [id, s] of this.streams) if (s.client === from && s.reqId === reqId) this.close(k, ctx, id, s);
  }

  dropClient(k: Kubelet, ctx: ActorContext, peer: ActorId): void {
    for (const [id, s] of this.streams) if (s.client === peer) this.close(k, ctx, id, s);
    for (const [id, f] of this.follows) if (f.client === peer) this.follows.delete(id);
    for (const [id, e] of this.execs) if (e.client === peer) this.execs.delete(id);
  }
}

/** The head of an exec's answer that comes later: its JSON follows as the body. */
function execHead(ctx: ActorContext, client: ActorId, reqId: number): void {
  ctx.send(client, httpMsg.response(reqId, text(200, '', EXEC_CONTENT_TYPE), true));
}

/** The 101 that opens a stream (the WebSocket upgrade kube-apiserver passes on). */
function upgraded(ctx: ActorContext, client: ActorId, reqId: number): void {
  ctx.send(client, httpMsg.response(reqId, { status: 101, headers: { upgrade: 'websocket', 'sec-websocket-protocol': EXEC_PROTOCOL }, body: '' }, true));
}

/** A process's output on its channels; a terminal has one stream, and its line discipline turns \n into \r\n (ONLCR). */
function sendOutput(ctx: ActorContext, client: ActorId, reqId: number, tty: boolean, output: readonly { fd: 1 | 2; text: string }[]): void {
  for (const o of output) ctx.send(client, httpMsg.chunk(reqId, frame(o.fd === 1 || tty ? STDOUT : STDERR, tty ? o.text.replace(/\r?\n/g, '\r\n') : o.text)));
}

interface CStatus {
  name: string;
  containerID?: string;
  state: { waiting?: { reason: string }; running?: unknown; terminated?: { containerID?: string } };
  lastState?: { terminated?: { containerID?: string } };
}

/** The kubelet's reading of PodLogOptions from the query. */
function logOptions(req: ApiRequest, now: number): LogOptions {
  const num = (name: string) => {
    const v = queryValue(req.query, name);
    return v === undefined ? undefined : Number(v);
  };
  const opts: LogOptions = { timestamps: queryValue(req.query, 'timestamps') === 'true' };
  const tail = num('tailLines');
  if (tail !== undefined && tail >= 0) opts.tailLines = tail;
  const limit = num('limitBytes');
  if (limit !== undefined && limit > 0) opts.limitBytes = limit;
  const sinceSeconds = num('sinceSeconds');
  if (sinceSeconds !== undefined) opts.since = now - sinceSeconds * 1000;
  const sinceTime = queryValue(req.query, 'sinceTime');
  if (sinceTime) opts.since = parseRfc3339(sinceTime);
  return opts;
}

registerClass('KubeletServer', KubeletServer);
