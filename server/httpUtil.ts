// Small HTTP helpers shared by the control API and the etcd gateway.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Largest request body accepted (etcd's gRPC limit is 2 MiB; leave room for base64). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export class BodyTooLarge extends Error {}

/** Reads a whole request body as UTF-8 text; rejects bodies over `limit` bytes. */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  return (await readBodyBytes(req, limit)).toString('utf8');
}

/** Reads a whole request body as bytes; rejects bodies over `limit` bytes. */
export function readBodyBytes(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > limit) {
        failed = true;
        reject(new BodyTooLarge(`request body larger than ${limit} bytes`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (e) => {
      if (!failed) {
        failed = true;
        reject(e);
      }
    });
  });
}

/** The headers etcd's gateway sends on every answer (server/embed/serve.go allows any origin). */
export const CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, GET, OPTIONS, PUT, DELETE',
  'Access-Control-Allow-Headers': 'accept, content-type, authorization',
};

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.writableEnded) {
    if (!res.writableEnded) res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, { ...CORS_HEADERS, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
