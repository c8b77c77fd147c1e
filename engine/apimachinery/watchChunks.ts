// Watch events decoded once per event, not once per watcher.
//
// kube-apiserver encodes each event once per version (the cacher's
// cachingObject) and sends the same bytes, one string here, to every watcher
// of that version; the informers of kube-controller-manager, kube-scheduler,
// kwok and the kubelets that receive a Node, Pod or Lease change would each
// decode an equal copy. Instead the last chunks are kept with their decoded
// event: the first reader decodes, or finds what the server primed when it
// encoded the line (the event it stringified, which decoding would rebuild
// exactly), and every reader shares the object. Shared objects are read-only
// (client-go's rule for informer objects; under test they are frozen and a
// change throws, see readonly.ts). A ring compared with ===, newest first
// (the same string: a pointer test; another: its length, or a short prefix),
// so a chunk nobody else receives costs no hashing of its text.
import type { KObject } from './types';
import { deepFreeze, readonlyChecks } from './readonly';

export type WatchLine = { readonly type: string; readonly object: KObject & { code?: number } };

// Deep enough for a burst: 100 writes in flight put their events out before the first reaches its readers.
const RECENT = 256;
const recentChunks: string[] = new Array<string>(RECENT).fill('');
const recentLines: (WatchLine | null)[] = new Array<WatchLine | null>(RECENT).fill(null);
let recentNext = 0;

function remember(chunk: string, line: WatchLine): void {
  recentChunks[recentNext] = chunk;
  recentLines[recentNext] = line;
  recentNext = (recentNext + 1) % RECENT;
}

/** The event in one whole watch line (JSON and its newline), shared with every reader of the same line. */
export function decodeWatchChunk(chunk: string): WatchLine {
  // Newest first: a line is read just after it was primed or first decoded (unequal lines of one length compare their text).
  for (let k = 1; k <= RECENT; k++) {
    const i = (recentNext - k + RECENT) % RECENT;
    if (recentChunks[i] === chunk) return recentLines[i]!;
  }
  const ev = deepFreeze(JSON.parse(chunk) as WatchLine);
  remember(chunk, ev);
  return ev;
}

/**
 * The server's side: `chunk` is JSON.stringify(line) + '\n', just encoded from
 * plain JSON data (what decoding it gives back member for member, in order:
 * no undefined members, no non-finite numbers). The readers find `line`
 * instead of decoding. Under the read-only checks that is verified, and `line`
 * frozen, so a caller that primes something decoding would not rebuild fails
 * its tests.
 */
export function primeWatchChunk(chunk: string, line: WatchLine): void {
  if (readonlyChecks()) {
    const decoded: unknown = JSON.parse(chunk);
    if (!sameJsonData(decoded, line)) throw new Error(`primed watch line differs from its decoding: ${chunk.slice(0, 200)}`);
    deepFreeze(line);
  }
  remember(chunk, line);
}

/** Member-for-member equality of plain JSON data, key order included (undefined members count). */
export function sameJsonData(a: unknown, b: unknown): boolean {
  if (a === b) return !Object.is(b, -0); // -0 is written 0
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!(i in b) || !sameJsonData(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || Object.getPrototypeOf(b) !== Object.prototype) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i]) return false;
    if (!sameJsonData((a as Record<string, unknown>)[ka[i]!], (b as Record<string, unknown>)[kb[i]!])) return false;
  }
  return true;
}
