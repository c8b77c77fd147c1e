// Reading v1 JSON the way the printers read internal Go structs: an absent
// field is the Go zero value ("" / 0 / false / nil).
import type { KObject } from '../../apimachinery/types';
import { translateTimestampSince } from './age';

export type Obj = Record<string, unknown>;

export const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const int = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : 0);
export const optInt = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? Math.trunc(v) : undefined);
export const optStr = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const strMap = (v: unknown): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(obj(v))) if (typeof x === 'string') out[k] = x;
  return out;
};

export const spec = (o: KObject): Obj => obj(o['spec']);
export const status = (o: KObject): Obj => obj(o['status']);
export const name = (o: KObject): string => o.metadata.name ?? '';
export const age = (o: KObject, now: number): string => translateTimestampSince(o.metadata.creationTimestamp, now);

/** resource.Quantity.String() of a stored (already canonical) quantity; the zero Quantity prints "0". */
export function quantity(v: unknown): string {
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number') return String(v);
  return '0';
}

/** (*resource.Quantity).String() on a pointer that may be nil. */
export function quantityPtr(v: unknown): string {
  return v === undefined || v === null ? '<nil>' : quantity(v);
}

/** intstr.IntOrString.String(). */
export function intOrString(v: unknown): string {
  return typeof v === 'number' ? String(Math.trunc(v)) : str(v);
}

/** layoutContainerCells: names and images, comma-joined. */
export function layoutContainerCells(containers: unknown): [string, string] {
  const cs = arr(containers).map(obj);
  return [cs.map((c) => str(c['name'])).join(','), cs.map((c) => str(c['image'])).join(',')];
}

/** The containers of a pod template (`spec.template.spec.containers`). */
export function templateContainers(specObj: Obj): unknown {
  return obj(obj(specObj['template'])['spec'])['containers'];
}

/** printBoolPtr. */
export function boolPtr(v: unknown): string {
  return typeof v === 'boolean' ? (v ? 'True' : 'False') : '<unset>';
}

/** Go's %s/%s formatting helpers keep the printers' code close to upstream. */
export const lower = (s: string) => s.toLowerCase();

/** sets.NewString(...).List(): unique, sorted. */
export function sortedUnique(values: readonly string[]): string[] {
  return [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** net.JoinHostPort: IPv6 hosts get brackets. */
export function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}
