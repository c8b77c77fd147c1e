// What a server in a container answers an HTTP request with: the status (its
// routes, or for file servers the file system), the headers and body, and the
// access-log line it writes. The prober's httpGet and connections from other
// pods (kubelet/network/podNetwork.ts) both come here, so a probe and a wget
// always agree.
import { dateText } from './commands';
import type { Daemon, HttpServe, Route } from './daemon';
import type { FileSystem } from './fs';
import { normalise } from './fs';
import { reasonPhrase } from './net';
import { utf8Length as byteLength } from '../../../sim/utf8';

export interface HttpRequestFacts {
  method: string;
  path: string;
  host: string;
  userAgent: string;
  clientIP: string;
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server's access-log line, on its stdout (1) or stderr (2). */
  log?: { fd: 1 | 2; text: string };
}

/** What the pod looks like from inside: its name (the hostname) and IP. */
export interface PodFacts {
  hostname: string;
  podIP: string;
}

/** The routes' status for `path` at `sinceMs` after the server started (first match wins; 404 otherwise). */
export function routeStatus(routes: readonly Route[], path: string, sinceMs: number): number {
  const p = path.split('?')[0];
  for (const r of routes) {
    if (r.path !== undefined && r.path !== p) continue;
    if (r.fromMs !== undefined && sinceMs < r.fromMs) continue;
    if (r.untilMs !== undefined && sinceMs >= r.untilMs) continue;
    return r.status;
  }
  return 404;
}

const httpDate = (at: number): string => dateText(at, '%a, %d %b %Y %H:%M:%S GMT');

const CONTENT_TYPES: Record<string, string> = { html: 'text/html', htm: 'text/html', txt: 'text/plain', json: 'application/json', css: 'text/css', js: 'application/javascript' };

function contentType(path: string, fallback: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return (ext && CONTENT_TYPES[ext]) ?? fallback;
}


/** nginx's built-in error page (ngx_http_special_response.c's layout). */
function nginxError(status: number, version: string): string {
  const title = `${status} ${reasonPhrase(status)}`;
  return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx/${version}</center>\r\n</body>\r\n</html>\r\n`;
}

/** Apache's error document for a missing file. */
function apacheNotFound(): string {
  return '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>404 Not Found</title>\n</head><body>\n<h1>Not Found</h1>\n<p>The requested URL was not found on this server.</p>\n</body></html>\n';
}

/** http.server's directory listing. */
function pythonListing(dir: string, names: string[], fs: FileSystem, at: number): string {
  const items = names.map((n) => {
    const slash = fs.isDir(`${dir}/${n}`, at) ? '/' : '';
    return `<li><a href="${encodeURI(n)}${slash}">${n}${slash}</a></li>`;
  });
  const title = `Directory listing for ${dir === '/' ? '/' : `${dir}/`}`;
  return `<!DOCTYPE HTML>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>${title}</title>\n</head>\n<body>\n<h1>${title}</h1>\n<hr>\n<ul>\n${items.join('\n')}\n</ul>\n<hr>\n</body>\n</html>\n`;
}

function fill(text: string, req: HttpRequestFacts, pod: PodFacts, at: number): string {
  return text.replace(/\{\{(\w+)\}\}/g, (m, k: string) => {
    switch (k) {
      case 'hostname':
        return pod.hostname;
      case 'podIP':
        return pod.podIP;
      case 'clientIP':
        return req.clientIP;
      case 'method':
        return req.method;
      case 'path':
        return req.path;
      case 'host':
        return req.host;
      case 'userAgent':
        return req.userAgent;
      case 'now':
        return dateText(at, '%Y-%m-%d %H:%M:%S.%6N +0000 UTC');
      default:
        return m;
    }
  });
}

/** A file server's answer: the file under its root, a directory's index (or listing), or its 404. */
function serveFiles(h: Extract<HttpServe, { k: 'files' }>, req: HttpRequestFacts, fs: FileSystem, at: number): { status: number; type: string; body: string } {
  const urlPath = decodeURIComponent(req.path.split('?')[0] || '/');
  const path = normalise(`${h.root}/${urlPath}`);
  if (fs.isFile(path, at)) return { status: 200, type: contentType(path, 'application/octet-stream'), body: fs.read(path, at)! };
  if (fs.isDir(path, at)) {
    for (const i of h.index) {
      const p = normalise(`${path}/${i}`);
      if (fs.isFile(p, at)) return { status: 200, type: contentType(p, 'text/html'), body: fs.read(p, at)! };
    }
    if (h.listing) return { status: 200, type: 'text/html; charset=utf-8', body: pythonListing(urlPath.replace(/\/+$/, '') || '/', fs.children(path, at), fs, at) };
    // nginx without autoindex: a directory without an index is forbidden.
    if (h.server === 'nginx') return { status: 403, type: 'text/html', body: nginxError(403, h.version) };
  }
  if (h.server === 'nginx') return { status: 404, type: 'text/html', body: nginxError(404, h.version) };
  if (h.server === 'apache') return { status: 404, type: 'text/html; charset=iso-8859-1', body: apacheNotFound() };
  return { status: 404, type: 'text/html;charset=utf-8', body: '<!DOCTYPE HTML>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error response</title>\n</head>\n<body>\n<h1>Error response</h1>\n<p>Error code: 404</p>\n<p>Message: File not found.</p>\n<p>Error code explanation: 404 - Nothing matches the given URI.</p>\n</body>\n</html>\n' };
}

/** The access-log line of each server, as its default log format writes it. */
function accessLog(h: Extract<HttpServe, { k: 'files' }>, req: HttpRequestFacts, status: number, bytes: number, at: number): HttpAnswer['log'] {
  const line = `${req.method} ${req.path} HTTP/1.1`;
  switch (h.server) {
    case 'nginx':
      // log_format main: $remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" "$http_x_forwarded_for"
      return { fd: 1, text: `${req.clientIP} - - [${dateText(at, '%d/%b/%Y:%H:%M:%S +0000')}] "${line}" ${status} ${bytes} "-" "${req.userAgent}" "-"\n` };
    case 'apache':
      // LogFormat "%h %l %u %t \"%r\" %>s %b" common
      return { fd: 1, text: `${req.clientIP} - - [${dateText(at, '%d/%b/%Y:%H:%M:%S +0000')}] "${line}" ${status} ${bytes || '-'}\n` };
    case 'python':
      return { fd: 2, text: `${req.clientIP} - - [${dateText(at, '%d/%b/%Y %H:%M:%S')}] "${line}" ${status} -\n` };
  }
}

/** The answer of server `d` (started at `d.since`) to `req` at `at`. */
export function serveHttp(d: Daemon & { since: number }, req: HttpRequestFacts, at: number, fs: FileSystem, pod: PodFacts): HttpAnswer {
  const h = d.http;
  if (h?.k === 'files') {
    const r = serveFiles(h, req, fs, at);
    const body = req.method === 'HEAD' ? '' : r.body;
    const server = h.server === 'nginx' ? `nginx/${h.version}` : h.server === 'apache' ? `Apache/${h.version} (Unix)` : `SimpleHTTP/0.6 Python/${h.version}`;
    const headers: Record<string, string> = { Server: server, Date: httpDate(at), 'Content-Type': r.type, 'Content-Length': String(byteLength(r.body)) };
    if (h.server === 'nginx') headers['Connection'] = 'keep-alive';
    return { status: r.status, headers, body, log: accessLog(h, req, r.status, byteLength(body), at) };
  }
  const status = routeStatus(d.routes ?? [], req.path, at - d.since);
  const text = h?.k === 'text' ? (h.byPath?.[req.path.split('?')[0]!] ?? h.body) : '';
  const body = req.method === 'HEAD' || status >= 400 ? '' : h?.k === 'text' && h.raw ? text : fill(text, req, pod, at);
  return { status, headers: { 'Content-Type': h?.k === 'text' ? h.contentType : 'text/plain; charset=utf-8', Date: httpDate(at), 'Content-Length': String(byteLength(body)) }, body };
}
