// `kubectl exec` and `kubectl attach` from a real kubectl: the WebSocket
// stream protocol (v5.channel.k8s.io / v4.channel.k8s.io) kube-apiserver
// speaks for pods/exec and pods/attach since v1.30. A command without stdin runs inside the simulation through
// pods/exec (kube-apiserver proxies it to the pod's kubelet) and answers with
// its whole output at once; here that answer becomes what the streaming
// protocol carries: the stdout (channel 1) and stderr (channel 2) frames, then
// a Status on the error channel (3) — Success, NonZeroExitCode with the exit
// code as a cause, or an InternalError as the kubelet's streaming server sends
// for a command that could not be started — then the close. Errors before the
// stream (no such pod, forbidden) are the API's ordinary error responses, as
// a real apiserver refuses the upgrade.
//
// With stdin (-i, and attach) the simulation's pods/exec or pods/attach is a
// stream both ways, relayed frame by frame (relayStream); with a TTY (-t) the
// real kubectl's raw keys pass through a terminal line discipline here
// (ttyLine.ts). SPDY (the fallback a kubectl older than 1.30 uses, or one
// whose WebSocket attempt failed) is answered with the API's error if there
// is one, else with a BadRequest that says the simulation streams over
// WebSocket only.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ApiRequest, ApiResponse } from '../../engine/apiserver/types';
import { CLIENT_CERT_HEADER } from '../../engine/apiserver/auth/authn';
import type { ApiCalls } from './apiCalls';
import { CLOSE_STDIN, exitStatus, frame, STDIN } from '../../engine/apiserver/http/execStream';
import { TtyLine } from './ttyLine';

const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const PROTOCOLS = ['v5.channel.k8s.io', 'v4.channel.k8s.io'];
const EXEC_PATH = /^\/api\/v1\/namespaces\/[^/]+\/pods\/[^/]+\/(?:exec|attach)$/;
const STDOUT = 1;
const STDERR = 2;
const ERROR = 3;
/** v5.channel.k8s.io's close message: 255, then the channel closed. */
const CLOSE = 255;

/** The exec answer the kubelet gives (through kube-apiserver) on success. */
interface ExecAnswer {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export function isExecUpgrade(req: IncomingMessage, url: URL): boolean {
  return EXEC_PATH.test(url.pathname) && /upgrade/i.test(String(req.headers.connection ?? ''));
}

/** One WebSocket frame from the server: unmasked, final, binary unless told. */
export function wsFrame(payload: Buffer, opcode = 0x2): Buffer {
  const n = payload.length;
  const head = n < 126 ? Buffer.from([0x80 | opcode, n]) : n < 65_536 ? Buffer.alloc(4) : Buffer.alloc(10);
  if (n >= 126 && n < 65_536) {
    head[0] = 0x80 | opcode;
    head[1] = 126;
    head.writeUInt16BE(n, 2);
  } else if (n >= 65_536) {
    head[0] = 0x80 | opcode;
    head[1] = 127;
    head.writeBigUInt64BE(BigInt(n), 2);
  }
  return Buffer.concat([head, payload]);
}

/** Client frames (masked), as far as `buf` holds whole ones; the rest stays for later. */
export function readFrames(buf: Buffer): { frames: { opcode: number; payload: Buffer }[]; rest: Buffer } {
  const frames: { opcode: number; payload: Buffer }[] = [];
  let off = 0;
  for (;;) {
    if (buf.length - off < 2) break;
    const opcode = buf[off]! & 0x0f;
    const masked = (buf[off + 1]! & 0x80) !== 0;
    let len = buf[off + 1]! & 0x7f;
    let p = off + 2;
    if (len === 126) {
      if (buf.length - p < 2) break;
      len = buf.readUInt16BE(p);
      p += 2;
    } else if (len === 127) {
      if (buf.length - p < 8) break;
      len = Number(buf.readBigUInt64BE(p));
      p += 8;
    }
    const mask = masked ? buf.subarray(p, p + 4) : null;
    if (masked) p += 4;
    if (buf.length - p < len) break;
    const payload = Buffer.from(buf.subarray(p, p + len));
    if (mask) for (let i = 0; i < payload.length; i++) payload[i] = payload[i]! ^ mask[i % 4]!;
    frames.push({ opcode, payload });
    off = p + len;
  }
  return { frames, rest: buf.subarray(off) };
}

function httpAnswer(socket: Duplex, status: number, reason: string, body: string, contentType = 'application/json'): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 500: 'Internal Server Error', 503: 'Service Unavailable' };

function toApiRequest(req: IncomingMessage, url: URL): ApiRequest {
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of url.searchParams) {
    const prev = query[k];
    query[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers))
    if (v !== undefined && !/^(connection|upgrade|sec-websocket-.*|x-stream-protocol-version)$/i.test(k)) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  delete headers[CLIENT_CERT_HEADER];
  return { method: 'POST', path: url.pathname, query, headers };
}

/** Handles an HTTP upgrade to pods/exec (WebSocket or SPDY). */
export async function serveExecUpgrade(calls: ApiCalls, req: IncomingMessage, socket: Duplex, url: URL): Promise<void> {
  socket.on('error', () => socket.destroy());
  const upgrade = String(req.headers.upgrade ?? '').toLowerCase();
  const offered = String(req.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((s) => s.trim());
  const protocol = PROTOCOLS.find((p) => offered.includes(p));
  const out = await calls.request(toApiRequest(req, url));
  if (!out.ok) {
    const body = JSON.stringify({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `the simulated API server did not answer: ${out.error}`,
      reason: 'ServiceUnavailable',
      code: 503,
    });
    return httpAnswer(socket, 503, 'Service Unavailable', body);
  }
  let res: ApiResponse = out.response;
  if (out.streaming && res.status !== 101) {
    // An exec that takes its time: its answer is the body that follows the head.
    const id = out.id;
    const body = await new Promise<string>((resolve) => {
      let b = '';
      calls.follow(id, (chunk) => (b += chunk), () => resolve(b));
    });
    res = { ...res, body: res.body + body };
  }
  if (res.status === 101 && out.streaming) {
    if (upgrade !== 'websocket' || !protocol) {
      calls.follow(out.id, () => {}, () => {})();
      return httpAnswer(socket, 400, 'Bad Request', JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `upgrade to ${upgrade || 'nothing'} is not supported: this simulation streams exec over WebSocket (${PROTOCOLS.join(', ')}) only`, reason: 'BadRequest', code: 400 }));
    }
    return relayStream(calls, out.id, req, socket, protocol, url.searchParams.get('tty') === 'true');
  }
  const ok = res.status >= 200 && res.status < 300;
  // A command that could not start is an error on the stream; anything else is a refused upgrade.
  if ((!ok && res.status !== 500) || upgrade !== 'websocket' || !protocol) {
    if (!ok) return httpAnswer(socket, res.status, STATUS_TEXT[res.status] ?? 'Error', res.body);
    const body = JSON.stringify({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `upgrade to ${upgrade || 'nothing'} is not supported: this simulation streams exec over WebSocket (${PROTOCOLS.join(', ')}) only`,
      reason: 'BadRequest',
      code: 400,
    });
    return httpAnswer(socket, 400, 'Bad Request', body);
  }
  acceptUpgrade(req, socket, protocol);
  const channel = (id: number, data: string | Buffer) => socket.write(wsFrame(Buffer.concat([Buffer.from([id]), Buffer.isBuffer(data) ? data : Buffer.from(data)])));
  let status: Record<string, unknown>;
  if (ok) {
    const a = JSON.parse(res.body) as ExecAnswer;
    if (a.stdout) channel(STDOUT, a.stdout);
    if (a.stderr) channel(STDERR, a.stderr);
    // The kubelet's streaming server reports the exit as containerd words it (http/execStream.ts).
    status = { ...exitStatus(a.exitCode, url.searchParams.getAll('command')) };
  } else {
    const s = JSON.parse(res.body) as Record<string, unknown>;
    status = { metadata: {}, status: 'Failure', message: s.message, reason: s.reason, details: s.details, code: s.code };
  }
  channel(ERROR, JSON.stringify(status));
  // Close (1000), then answer the client's frames until it closes too: pings get pongs.
  const close = Buffer.alloc(2);
  close.writeUInt16BE(1000, 0);
  socket.write(wsFrame(close, 0x8));
  let pending: Buffer = Buffer.alloc(0);
  const timer = setTimeout(() => socket.destroy(), 5000);
  socket.on('data', (chunk: Buffer) => {
    const { frames, rest } = readFrames(Buffer.concat([pending, chunk]));
    pending = rest;
    for (const f of frames) {
      if (f.opcode === 0x9) socket.write(wsFrame(f.payload, 0xa));
      if (f.opcode === 0x8) {
        clearTimeout(timer);
        socket.end();
      }
    }
  });
  socket.on('close', () => clearTimeout(timer));
}

/** The 101 answer that completes the client's WebSocket handshake (RFC 6455 §4.2.2). */
function acceptUpgrade(req: IncomingMessage, socket: Duplex, protocol: string): void {
  const key = String(req.headers['sec-websocket-key'] ?? '');
  const accept = createHash('sha1')
    .update(key + WS_GUID)
    .digest('base64');
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\nSec-WebSocket-Protocol: ${protocol}\r\n\r\n`);
}

/**
 * An exec or attach with stdin: the simulated stream both ways, relayed frame
 * by frame. The simulation's chunks already start with their channel; the
 * client's stdin frames go in as they come — through a terminal's line
 * discipline when there is a TTY, since a real kubectl sends raw keys and the
 * simulated shell reads lines — and v5's close of stdin ends its input.
 */
function relayStream(calls: ApiCalls, id: number, req: IncomingMessage, socket: Duplex, protocol: string, tty: boolean): void {
  acceptUpgrade(req, socket, protocol);
  const toClient = (channel: number, data: string) => socket.write(wsFrame(Buffer.concat([Buffer.from([channel]), Buffer.from(data)])));
  const line = tty ? new TtyLine() : null;
  let closed = false;
  const stop = calls.follow(
    id,
    (chunk) => {
      if (!closed) toClient(chunk.charCodeAt(0), chunk.slice(1));
    },
    () => {
      if (closed) return;
      closed = true;
      const close = Buffer.alloc(2);
      close.writeUInt16BE(1000, 0);
      socket.write(wsFrame(close, 0x8));
      setTimeout(() => socket.destroy(), 5000).unref();
    },
  );
  let pending: Buffer = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    const { frames, rest } = readFrames(Buffer.concat([pending, chunk]));
    pending = rest;
    for (const f of frames) {
      if (f.opcode === 0x9) socket.write(wsFrame(f.payload, 0xa));
      else if (f.opcode === 0x8) {
        closed = true;
        stop();
        socket.end();
      } else if ((f.opcode === 0x2 || f.opcode === 0x0) && f.payload.length > 0) {
        const channel = f.payload[0]!;
        if (channel === CLOSE && f.payload[1] === STDIN) calls.send(id, CLOSE_STDIN);
        else if (channel === STDIN) {
          const data = f.payload.subarray(1).toString();
          if (!line) calls.send(id, frame(STDIN, data));
          else {
            const out = line.feed(data);
            if (out.echo) toClient(STDOUT, out.echo);
            for (const s of out.send) calls.send(id, frame(STDIN, s));
          }
        }
      }
    }
  });
  socket.on('close', () => {
    if (!closed) {
      closed = true;
      stop();
    }
  });
}
