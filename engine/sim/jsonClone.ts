// A JSON round trip (JSON.parse(JSON.stringify(v))) of plain data, built
// directly: no intermediate string, several times faster on small values.
// Exact for plain data: undefined, functions and symbols are dropped from
// objects and become null in arrays, non-finite numbers become null, -0
// becomes 0, key order is kept. Anything else (class instances, toJSON,
// bigint, a "__proto__" key) takes the real round trip.

const NOT_PLAIN = Symbol('not plain data');

export function jsonRoundTrip<T>(v: T): T {
  const c = cloneJsonData(v);
  return (c === NOT_PLAIN ? JSON.parse(JSON.stringify(v)) : c) as T;
}

function cloneJsonData(v: unknown): unknown {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      return Number.isFinite(v) ? v + 0 : null; // + 0 turns -0 into 0, as JSON does
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'bigint':
      return NOT_PLAIN;
    case 'object': {
      if (v === null) return null;
      if (Array.isArray(v)) {
        const out: unknown[] = new Array(v.length);
        for (let i = 0; i < v.length; i++) {
          const c = cloneJsonData(v[i]);
          if (c === NOT_PLAIN) return NOT_PLAIN;
          out[i] = c === undefined ? null : c;
        }
        return out;
      }
      const proto = Object.getPrototypeOf(v) as unknown;
      if ((proto !== Object.prototype && proto !== null) || 'toJSON' in v) return NOT_PLAIN;
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v)) {
        if (k === '__proto__') return NOT_PLAIN;
        const c = cloneJsonData((v as Record<string, unknown>)[k]);
        if (c === NOT_PLAIN) return NOT_PLAIN;
        if (c !== undefined) out[k] = c;
      }
      return out;
    }
  }
  return NOT_PLAIN;
}
