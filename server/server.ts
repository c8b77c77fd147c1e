// The headless Kubeglass server: one HTTP listener on 127.0.0.1 serving the
// playground control API and etcd's v3 JSON gateway over the simulated cluster.
// Nothing a client sends may bring it down: bad input is a 4xx, a bug in a
// handler a 500 JSON answer, and the server keeps serving.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { makeServingCert } from './kube/tls';
import type { AddressInfo } from 'node:net';
import { ControlApi, type ControlAnswer } from './control';
import { EtcdGateway } from './gateway/gateway';
import { EngineHost, type HostOptions } from './host';
import { BodyTooLarge, CORS_HEADERS, readBody, sendJson } from './httpUtil';
import { ApiCalls } from './kube/apiCalls';
import { isKubePath, serveKube } from './kube/kubeHttp';
import { kubectlEndpoint } from './kube/kubectlEndpoint';
import { isExecUpgrade, serveExecUpgrade } from './kube/execStream';
import type { Duplex } from 'node:stream';
import { SchedulerApi } from './scheduler/schedulerApi';

export interface ServerOptions extends HostOptions {
  /** 0 = an ephemeral port. */
  port: number;
  /** Where to write a kubeconfig for this cluster (default: ./kubeconfig.kubeglass when the control plane runs). */
  kubeconfig?: string;
  /** Also serve everything over HTTPS on this port (0 = ephemeral), with a self-signed certificate: what kubectl needs to send tokens. */
  tlsPort?: number;
}

export interface RunningServer {
  /** The HTTPS listener, when asked for: its URL and the CA (PEM) a kubeconfig should trust. */
  tls?: { url: string; port: number; caPem: string };
  host: EngineHost;
  gateway: EtcdGateway;
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

type ControlRoute = { method: 'GET'; run: (query: URLSearchParams) => ControlAnswer } | { method: 'POST'; run: (body: unknown) => ControlAnswer | Promise<ControlAnswer> };

export function startServer(opts: ServerOptions): Promise<RunningServer> {
  const host = new EngineHost(opts);
  const gateway = new EtcdGateway(host);
  const control = new ControlApi(host);
  const apiCalls = new ApiCalls(host);
  const scheduler = new SchedulerApi(host);
  const routes = new Map<string, ControlRoute>([
    ['/playground/v1/state', { method: 'GET', run: () => control.state() }],
    ['/playground/v1/etcd', { method: 'GET', run: () => control.etcd() }],
    ['/playground/v1/commands', { method: 'GET', run: () => control.commands() }],
    ['/playground/v1/requests', { method: 'GET', run: (q) => control.requests(q) }],
    ['/playground/v1/clock', { method: 'POST', run: (b) => control.clock(b) }],
    ['/playground/v1/faults', { method: 'POST', run: (b) => control.faults(b) }],
    ['GET /playground/v1/faults', { method: 'GET', run: () => control.activeFaults() }],
    ['/playground/v1/load', { method: 'POST', run: (b) => control.load(b) }],
    ['/playground/v1/kubectl', { method: 'POST', run: (b) => kubectlEndpoint(host, apiCalls, b) }],
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
    if (isKubePath(path)) return serveKube(apiCalls, req, res, url);
    if (path.startsWith('/playground/v1/scheduler/')) {
      let a;
      if (path === '/playground/v1/scheduler/decisions' && method === 'GET') a = scheduler.decisions(url.searchParams);
      else if (path === '/playground/v1/scheduler/queue' && method === 'GET') a = scheduler.queue();
      else if (path === '/playground/v1/scheduler/config' && method === 'GET') a = scheduler.getConfig(url.searchParams, String(req.headers.accept ?? ''));
      else if (path === '/playground/v1/scheduler/config' && method === 'PUT') {
        let text: string;
        try {
          text = await readBody(req, 1024 * 1024);
        } catch (e) {
          return sendJson(res, e instanceof BodyTooLarge ? 413 : 400, { error: String(e instanceof Error ? e.message : e) });
        }
        a = scheduler.putConfig(text);
      } else if (['/playground/v1/scheduler/decisions', '/playground/v1/scheduler/queue', '/playground/v1/scheduler/config'].includes(path)) {
        return sendJson(res, 405, { error: `${path} takes ${path.endsWith('config') ? 'GET or PUT' : 'GET'}, not ${method}` });
      } else return sendJson(res, 404, { error: `no such endpoint: ${method} ${path}` });
      res.writeHead(a.status, { 'content-type': a.contentType, ...CORS_HEADERS });
      res.end(a.text);
      return;
    }
    if (gateway.handles(path)) {
      if (method !== 'POST') return sendJson(res, 405, { error: 'Method Not Allowed', code: 12, message: 'Method Not Allowed' });
      return gateway.serve(path, req, res);
    }
    // A path served for more than one method has its other methods' routes under "METHOD path".
    const route = routes.get(`${method} ${path}`) ?? routes.get(path);
    if (!route) {
      const body = path.startsWith('/v3/') ? { error: 'Not Found', code: 5, message: 'Not Found' } : { error: `no such endpoint: ${method} ${path}` };
      return sendJson(res, 404, body);
    }
    if (route.method !== method) return sendJson(res, 405, { error: `${path} takes ${route.method}, not ${method}` });
    if (route.method === 'GET') return send(res, route.run(url.searchParams));
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

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((e: unknown) => {
      // A bug, not bad input: answer 500 and keep serving.
      const message = e instanceof Error ? e.message : String(e);
      console.error(`internal error serving ${req.method} ${req.url}:`, e);
      if (!res.headersSent) sendJson(res, 500, { error: `internal error: ${message}` });
      else if (!res.writableEnded) res.end();
    });
  };
  const server = createServer(listener);
  const cert = opts.tlsPort !== undefined ? makeServingCert() : null;
  const secure = cert ? createHttpsServer({ key: cert.key, cert: cert.cert }, listener) : null;
  // kubectl exec streams over an HTTP upgrade (WebSocket, or SPDY as a fallback); other upgrades are refused.
  const upgrade = (req: IncomingMessage, socket: Duplex) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (isExecUpgrade(req, url)) {
      serveExecUpgrade(apiCalls, req, socket, url).catch((e: unknown) => {
        console.error(`internal error serving ${req.method} ${req.url}:`, e);
        socket.destroy();
      });
      return;
    }
    socket.end('HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{"error":"this server upgrades only pods/exec requests"}');
  };
  server.on('upgrade', upgrade);
  secure?.on('upgrade', upgrade);
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{"error":"malformed HTTP request"}');
    else socket.destroy();
  });

  const listen = (s: Server, port: number) =>
    new Promise<number>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        s.off('error', reject);
        resolve((s.address() as AddressInfo).port);
      });
    });
  return (async () => {
    const port = await listen(server, opts.port);
    const running: RunningServer = {
      host,
      gateway,
      server,
      port,
      url: `http://127.0.0.1:${port}`,
      close: () =>
        new Promise<void>((done) => {
          host.stop();
          let open = secure ? 2 : 1;
          const one = () => --open === 0 && done();
          server.close(one);
          server.closeAllConnections();
          if (secure) {
            secure.close(one);
            secure.closeAllConnections();
          }
        }),
    };
    if (secure && cert) {
      const tlsPort = await listen(secure, opts.tlsPort!);
      running.tls = { url: `https://127.0.0.1:${tlsPort}`, port: tlsPort, caPem: cert.cert };
    }
    return running;
  })();
}

function send(res: ServerResponse, a: ControlAnswer): void {
  sendJson(res, a.status, a.body);
}
