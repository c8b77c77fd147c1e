// Kubernetes API calls from a host into the running simulation: each request
// is an engine command (recorded), answered when the simulated apiserver's
// reply reaches kubectl-0 in virtual time. Hosts call poll() after advancing.
// This is the transport the in-page kubectl uses.
import type { ApiRequest, ApiResponse } from '../apiserver/types';
import type { Command } from '../facade/types';
import type { ExecResult } from '../facade/engine';
import type { ApiCall } from '../apiserver/client/apiClient';
import { CLIENT_CERT_HEADER } from '../apiserver/auth/authn';

export interface BridgeEngine {
  exec(cmd: Command): ExecResult;
  apiCall(id: number): ApiCall | undefined;
  apiDrain(id: number): { lines: string[]; ended: boolean };
  apiForget(id: number): void;
  /** The cluster finished booting (see Engine.clusterReady). */
  clusterReady?(): boolean;
}

interface Pending {
  resolve: (r: ApiResponse) => void;
  reject: (e: Error) => void;
}
interface Stream {
  onLine: (line: string) => void;
  resolveDone: (r: ApiResponse | null) => void;
  head?: ApiResponse;
}

/** kubectl's words for a server that does not answer. */
export function connectionError(kind: string, server = '10.0.0.10:6443'): string {
  if (kind === 'refused') return `The connection to the server ${server} was refused - did you specify the right host or port?`;
  if (kind === 'timeout') return `Unable to connect to the server: net/http: request canceled (Client.Timeout exceeded while awaiting headers)`;
  return `Unable to connect to the server: read tcp: connection reset by peer`;
}

/**
 * The in-page kubectl is the cluster admin, as kubeadm's admin.conf makes it: it
 * presents the kubernetes-admin client certificate (CN=kubernetes-admin, O=system:masters).
 */
export const ADMIN_CERT_SUBJECT = 'CN=kubernetes-admin,O=system:masters';

function withCredentials(req: ApiRequest): ApiRequest {
  if (req.headers['authorization'] || req.headers[CLIENT_CERT_HEADER]) return req;
  return { ...req, headers: { ...req.headers, [CLIENT_CERT_HEADER]: ADMIN_CERT_SUBJECT } };
}

export class ApiBridge {
  private readonly pending = new Map<number, Pending>();
  private readonly streams = new Map<number, Stream>();
  private readyWaiters: (() => void)[] = [];
  /** kubectl's sleeps (drain's retries and polls), woken by poll() once the clock has passed them. */
  private sleepers: { until: number; now: () => number; resolve: () => void }[] = [];

  constructor(private engine: BridgeEngine) {}

  replace(engine: BridgeEngine): void {
    for (const s of this.sleepers) s.resolve();
    this.sleepers = [];
    for (const p of this.pending.values()) p.reject(new Error('the simulation was restarted'));
    for (const s of this.streams.values()) s.resolveDone(null);
    this.pending.clear();
    this.streams.clear();
    this.engine = engine;
  }

  get waiting(): number {
    return this.pending.size + this.streams.size + this.readyWaiters.length + this.sleepers.length;
  }

  /** Settles once `ms` of the simulation's time (read through `now`) has passed. */
  sleep(ms: number, now: () => number): Promise<void> {
    return new Promise((resolve) => {
      this.sleepers.push({ until: now() + ms, now, resolve });
      this.poll();
    });
  }

  /** Settles once the cluster has booted (at once when it has, or when the engine cannot tell). */
  whenReady(): Promise<void> {
    if (!this.engine.clusterReady || this.engine.clusterReady()) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  request(req: ApiRequest): Promise<ApiResponse> {
    const r = this.engine.exec({ type: 'api', request: withCredentials(req) });
    if (!r.ok) return Promise.reject(new Error(r.error));
    const id = r.result as number;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.poll();
    });
  }

  watch(req: ApiRequest, onLine: (line: string) => void): { cancel(): void; done: Promise<ApiResponse | null> } {
    const { cancel, done } = this.open(req, onLine);
    return { cancel, done };
  }

  /** A stream both ways (an exec with stdin): a watch whose call also carries what `send` writes. */
  stream(req: ApiRequest, onChunk: (chunk: string) => void): { send(chunk: string): void; cancel(): void; done: Promise<ApiResponse | null> } {
    const { id, cancel, done } = this.open(req, onChunk);
    return {
      send: (chunk) => {
        if (id === undefined || !this.streams.has(id)) return;
        this.engine.exec({ type: 'apiSend', call: id, data: chunk });
        this.poll();
      },
      cancel,
      done,
    };
  }

  private open(req: ApiRequest, onLine: (line: string) => void): { id?: number; cancel(): void; done: Promise<ApiResponse | null> } {
    const r = this.engine.exec({ type: 'api', request: withCredentials(req) });
    if (!r.ok) return { cancel() {}, done: Promise.reject(new Error(r.error)) };
    const id = r.result as number;
    let resolveDone!: (x: ApiResponse | null) => void;
    const done = new Promise<ApiResponse | null>((res) => (resolveDone = res));
    this.streams.set(id, { onLine, resolveDone });
    this.poll();
    return {
      id,
      cancel: () => {
        const s = this.streams.get(id);
        if (!s) return;
        this.streams.delete(id);
        this.engine.exec({ type: 'apiCancel', call: id });
        this.engine.apiForget(id);
        s.resolveDone(s.head ?? null);
      },
      done,
    };
  }

  poll(): void {
    if (this.sleepers.length > 0) {
      const due = this.sleepers.filter((s) => s.now() >= s.until);
      this.sleepers = this.sleepers.filter((s) => s.now() < s.until);
      for (const s of due) s.resolve();
    }
    if (this.readyWaiters.length > 0 && (!this.engine.clusterReady || this.engine.clusterReady())) {
      const ws = this.readyWaiters;
      this.readyWaiters = [];
      for (const w of ws) w();
    }
    for (const [id, p] of [...this.pending]) {
      const c = this.engine.apiCall(id);
      if (!c) {
        this.pending.delete(id);
        p.reject(new Error(connectionError('reset')));
        continue;
      }
      if (c.error) {
        this.pending.delete(id);
        this.engine.apiForget(id);
        p.reject(new Error(connectionError(c.error)));
      } else if (c.response) {
        // A body that comes in chunks after its head (an exec that takes its time): the whole of it, once it has ended.
        const chunked = c.streaming && c.response.status !== 101;
        if (chunked && !c.ended) continue;
        this.pending.delete(id);
        const rest = chunked ? this.engine.apiDrain(id).lines.join('') : '';
        this.engine.apiForget(id);
        p.resolve(chunked ? { ...c.response, body: c.response.body + rest } : c.response);
      }
    }
    for (const [id, s] of [...this.streams]) {
      const c = this.engine.apiCall(id);
      if (!c) {
        this.streams.delete(id);
        s.resolveDone(s.head ?? null);
        continue;
      }
      if (c.response && !s.head) s.head = c.response;
      if (c.error && !s.head) {
        this.streams.delete(id);
        this.engine.apiForget(id);
        s.resolveDone(null);
        continue;
      }
      const { lines, ended } = this.engine.apiDrain(id);
      for (const l of lines) s.onLine(l);
      if (ended) {
        this.streams.delete(id);
        this.engine.apiForget(id);
        s.resolveDone(s.head ?? null);
      }
    }
  }
}
