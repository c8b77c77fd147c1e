// Objects shared rather than copied are frozen, so that code which tried to
// change one throws instead of corrupting its other readers: the API server's
// watch-cache objects (an update starts from the cached object as
// GuaranteedUpdate's cachedExistingObject), and the decoded watch events the
// components' reflectors share (client/reflector.ts).

/** Freezes a plain JSON value in place, deeply (once: a frozen root is taken as done). */
export function deepFreeze<T>(v: T): T {
  if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return v;
  freezeTree(v as object);
  return v;
}

function freezeTree(o: object): void {
  Object.freeze(o);
  if (Array.isArray(o)) {
    for (let i = 0; i < o.length; i++) {
      const x: unknown = o[i];
      if (typeof x === 'object' && x !== null && !Object.isFrozen(x)) freezeTree(x);
    }
    return;
  }
  for (const k in o) {
    const x = (o as Record<string, unknown>)[k];
    if (typeof x === 'object' && x !== null && !Object.isFrozen(x)) freezeTree(x);
  }
}
