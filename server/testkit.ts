// HTTP helpers for the server's integration and differential tests: plain
// JSON posts, and streaming exchanges (watch, keepalive) read line by line.
import { request } from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** One request; the body is sent as given (a string) or JSON-encoded. */
export function http(base: string, method: string, path: string, body?: unknown): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    const req = request(`${base}${path}`, { method, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const t = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: t, json: parse(t) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(text);
  });
}

export const post = (base: string, path: string, body?: unknown) => http(base, 'POST', path, body);
export const get = (base: string, path: string) => http(base, 'GET', path);

/**
 * A streaming exchange: the request body stays open (send() writes more
 * request objects), responses are parsed line by line as they arrive.
 */
export class JsonStream {
  status = 0;
  readonly messages: unknown[] = [];
  ended = false;
  private buf = '';
  private waiters: (() => void)[] = [];
  private readonly req;

  constructor(base: string, path: string, first?: unknown, opts: { keepOpen?: boolean } = {}) {
    this.req = request(`${base}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' } }, (res) => {
      this.status = res.statusCode ?? 0;
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        this.buf += c;
        let nl: number;
        while ((nl = this.buf.indexOf('\n')) >= 0) {
          const line = this.buf.slice(0, nl).trim();
          this.buf = this.buf.slice(nl + 1);
          if (line) this.messages.push(parse(line) ?? line);
        }
        this.wake();
      });
      res.on('end', () => {
        const rest = this.buf.trim();
        if (rest) this.messages.push(parse(rest) ?? rest);
        this.buf = '';
        this.ended = true;
        this.wake();
      });
      res.on('error', () => {
        this.ended = true;
        this.wake();
      });
    });
    this.req.on('error', () => {
      this.ended = true;
      this.wake();
    });
    this.req.flushHeaders();
    if (first !== undefined) this.send(first);
    if (!opts.keepOpen) this.req.end();
  }

  send(obj: unknown): void {
    this.req.write(typeof obj === 'string' ? obj : `${JSON.stringify(obj)}\n`);
  }

  endRequest(): void {
    this.req.end();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Waits until at least `n` messages arrived (or the stream ended, or the timeout). */
  async waitFor(n: number, timeoutMs = 5000): Promise<unknown[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.messages.length < n && !this.ended && Date.now() < deadline) {
      await new Promise<void>((r) => {
        const t = setTimeout(r, Math.max(1, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(t);
          r();
        });
      });
    }
    return this.messages.slice();
  }

  async waitEnd(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended && Date.now() < deadline) await this.waitFor(this.messages.length + 1, deadline - Date.now());
  }

  close(): void {
    this.req.destroy();
  }
}

export const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');
export const unb64 = (s: string): string => Buffer.from(s, 'base64').toString('utf8');
