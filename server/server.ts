// The headless Kubeglass server: one HTTP listener on 127.0.0.1 serving the
// playground control API and etcd's v3 JSON gateway over the simulated cluster.
// Nothing a client sends may bring it down: bad input is a 4xx, a bug in a
// handler a 500 JSON answer, and the server keeps serving.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ControlApi, type ControlAnswer } from './control';
import { EtcdGateway } from './gateway/gateway';
import { EngineHost, type HostOptions } from './host';
import { BodyTooLarge, CORS_HEADERS, readBody, sendJson } from './httpUtil';

export interface ServerOptions extends HostOptions {
  /** 0 = an ephemeral port. */
  port: number;
}

export interface RunningServer {
  host: EngineHost;
  gateway: EtcdGateway;
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

type ControlRoute = { method: 'GET'; run: () => ControlAnswer } | { method: 'POST'; run: (body: unknown) => ControlAnswer | Promise<ControlAnswer> };

export function startServer(opts: ServerOptions): Promise<RunningServer> {
  const host = new EngineHost(opts);
  const gateway = new EtcdGateway(host);
  const control = new ControlApi(host);
  const routes = new Map<string, ControlRoute>([
    ['/playground/v1/state', { method: 'GET', run: () => control.state() }],
    ['/playground/v1/etcd', { method: 'GET', run: () => control.etcd() }],
    ['/playground/v1/commands', { method: 'GET', run: () => control.commands() }],
    ['/playground/v1/clock', { method: 'POST', run: (b) => control.clock(b) }],
    ['/playground/v1/faults', { method: 'POST', run: (b) => control.faults(b) }],
    ['/playground/v1/load', { method: 'POST', run: (b) => control.load(b) }],
  ]);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') {
      res.writeHead(204, CORS_HEADERS);
      res.end();
      return;
    }
    if (gateway.handles(path)) {
      if (method !== 'POST') return sendJson(res, 405, { error: 'Method Not Allowed', code: 12, message: 'Method Not Allowed' });
      return gateway.serve(path, req, res);
    }
    const route = routes.get(path);
    if (!route) {
      const body = path.startsWith('/v3/') ? { error: 'Not Found', code: 5, message: 'Not Found' } : { error: `no such endpoint: ${method} ${path}` };
      return sendJson(res, 404, body);
    }
    if (route.method !== method) return sendJson(res, 405, { error: `${path} takes ${route.method}, not ${method}` });
    if (route.method === 'GET') return send(res, route.run());
    let text: string;
    try {
      text = await readBody(req, 1024 * 1024);
    } catch (e) {
      return sendJson(res, e instanceof BodyTooLarge ? 413 : 400, { error: String(e instanceof Error ? e.message : e) });
    }
    let body: unknown;
    try {
      body = text.trim() === '' ? {} : JSON.parse(text);
    } catch (e) {
      return sendJson(res, 400, { error: `malformed JSON: ${e instanceof Error ? e.message : String(e)}` });
    }
    return send(res, await route.run(body));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      // A bug, not bad input: answer 500 and keep serving.
      const message = e instanceof Error ? e.message : String(e);
      console.error(`internal error serving ${req.method} ${req.url}:`, e);
      if (!res.headersSent) sendJson(res, 500, { error: `internal error: ${message}` });
      else if (!res.writableEnded) res.end();
    });
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{"error":"malformed HTTP request"}');
    else socket.destroy();
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => {
      server.off('error', reject);
      const port = (server.address() as AddressInfo).port;
      resolve({
        host,
        gateway,
        server,
        port,
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            host.stop();
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

function send(res: ServerResponse, a: ControlAnswer): void {
  sendJson(res, a.status, a.body);
}
