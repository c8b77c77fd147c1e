// A REST client over the host's transport, shaped like client-go's rest.Request:
// kubectl's headers (User-Agent, Impersonate-*), JSON bodies, and errors turned
// into API Status values as client-go's transformResponse does.
import type { ApiRequest, ApiResponse } from '../../apiserver/types';
import { isStatus, type Status } from '../../apimachinery/types';
import type { KubectlEnv } from '../types';
import { errs, fail } from './errors';

export const CLIENT_VERSION = 'v1.32.5';
export const GIT_COMMIT = '9894294ef13a5b32803e3ca2c0d620a088cc84d1';
export const KUSTOMIZE_VERSION = 'v5.5.0';
export const USER_AGENT = `kubectl/${CLIENT_VERSION} (linux/amd64) kubernetes/${GIT_COMMIT.slice(0, 7)}`;

export const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

export interface RequestOptions {
  query?: Record<string, string | string[] | undefined>;
  body?: unknown;
  contentType?: string;
  accept?: string;
}

export interface Impersonation {
  user?: string;
  groups?: string[];
}

/** HTTP status → the reason client-go assigns when the body is not a Status (errors.NewGenericServerResponse). */
function genericStatus(code: number, method: string, body: string): Status {
  const reasons: Record<number, [string, string]> = {
    400: ['BadRequest', 'the server rejected our request for an unknown reason'],
    401: ['Unauthorized', 'the server has asked for the client to provide credentials'],
    403: ['Forbidden', 'the server does not allow access to the requested resource'],
    404: ['NotFound', 'the server could not find the requested resource'],
    405: ['MethodNotAllowed', 'the server does not allow this method on the requested resource'],
    406: ['NotAcceptable', 'the server was unable to respond with a content type that the client supports'],
    409: ['Conflict', 'the server reported a conflict'],
    410: ['Gone', 'the server has asked for the client to provide credentials'],
    415: ['UnsupportedMediaType', 'the server was unable to respond with a content type that the client supports'],
    422: ['Invalid', 'the server rejected our request due to an error in our request'],
    429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
    500: ['InternalError', 'an error on the server ("") has prevented the request from succeeding'],
    503: ['ServiceUnavailable', 'the server is currently unable to handle the request'],
    504: ['Timeout', 'the server was unable to return a response in the time allotted, but may still be processing the request'],
  };
  const r = reasons[code];
  let message = r ? r[1] : `an error on the server ("${body.slice(0, 100)}") has prevented the request from succeeding`;
  if (code === 500 && body.trim()) message = `an error on the server ("${body.trim().slice(0, 100)}") has prevented the request from succeeding`;
  if (code === 404 && method !== 'GET' && r) message = 'the server could not find the requested resource';
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: r ? r[0] : 'InternalError', code };
}

export function statusFromResponse(res: ApiResponse, method: string): Status {
  try {
    const v = JSON.parse(res.body) as unknown;
    if (isStatus(v) && v.status === 'Failure') return v;
  } catch {
    // not JSON: fall through to the generic text
  }
  return genericStatus(res.status, method, res.body);
}

/**
 * The server's `Warning: 299 - "text"` headers (one per line here), as
 * client-go's WarningHandler reads them: code 299 only, the quoted text unquoted.
 */
export function warningsOf(res: ApiResponse): string[] {
  const h = res.headers?.['warning'];
  if (!h) return [];
  const out: string[] = [];
  for (const line of h.split('\n')) {
    const m = /^299 +\S+ +("(?:[^"\\]|\\.)*")/.exec(line.trim());
    if (!m) continue;
    try {
      out.push(JSON.parse(m[1]!) as string);
    } catch {
      // malformed: client-go skips it too
    }
  }
  return out;
}

export class RestClient {
  /** Warnings already printed: kubectl's warning writer prints each text once per run (Deduplicate). */
  private readonly warned = new Set<string>();

  constructor(
    private readonly env: KubectlEnv,
    private readonly impersonate: Impersonation = {},
    private readonly commandName = 'kubectl',
    private readonly onWarning: (text: string) => void = () => {},
  ) {}

  build(method: ApiRequest['method'], path: string, opts: RequestOptions = {}): ApiRequest {
    const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: opts.accept ?? 'application/json, */*', 'kubectl-command': this.commandName };
    if (this.impersonate.user) headers['impersonate-user'] = this.impersonate.user;
    // Several groups travel as one comma-joined header here (the transport's header map has one value per name).
    if (this.impersonate.groups && this.impersonate.groups.length > 0) headers['impersonate-group'] = this.impersonate.groups.join(', ');
    const query: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) query[k] = v;
    const req: ApiRequest = { method, path, query, headers };
    if (opts.body !== undefined) {
      req.body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      headers['content-type'] = opts.contentType ?? 'application/json';
    }
    return req;
  }

  /** Raw exchange: never throws for HTTP errors. */
  async raw(method: ApiRequest['method'], path: string, opts: RequestOptions = {}): Promise<ApiResponse> {
    const res = await this.env.transport.request(this.build(method, path, opts));
    for (const w of warningsOf(res)) {
      if (this.warned.has(w)) continue;
      this.warned.add(w);
      this.onWarning(w);
    }
    return res;
  }

  /** Sends and decodes JSON; an HTTP error becomes a thrown KubectlFailure carrying the Status. */
  async json<T = Record<string, unknown>>(method: ApiRequest['method'], path: string, opts: RequestOptions = {}): Promise<T> {
    const res = await this.raw(method, path, opts);
    if (res.status < 200 || res.status > 299) fail(errs.status(statusFromResponse(res, method)));
    try {
      return JSON.parse(res.body) as T;
    } catch {
      return fail(errs.plain(`unable to decode response from ${path}`));
    }
  }

  /** Like json() but returns the Status instead of throwing. */
  async tryJson<T = Record<string, unknown>>(method: ApiRequest['method'], path: string, opts: RequestOptions = {}): Promise<{ ok: true; value: T } | { ok: false; status: Status }> {
    const res = await this.raw(method, path, opts);
    if (res.status < 200 || res.status > 299) return { ok: false, status: statusFromResponse(res, method) };
    return { ok: true, value: JSON.parse(res.body) as T };
  }

  /** An upgraded stream both ways (exec with stdin); null when the transport has none. */
  stream(method: ApiRequest['method'], path: string, opts: RequestOptions, onChunk: (chunk: string) => void): { send(chunk: string): void; cancel(): void; done: Promise<ApiResponse | null> } | null {
    return this.env.transport.stream?.(this.build(method, path, opts), onChunk) ?? null;
  }

  watch(path: string, opts: RequestOptions, onLine: (line: string) => void): { cancel(): void; done: Promise<ApiResponse | null> } {
    return this.env.transport.watch(this.build('GET', path, opts), onLine);
  }
}
