// Objects of the watch cache are shared, never copied, by the requests that
// read them (an update starts from the cached object as GuaranteedUpdate's
// cachedExistingObject). Freezing them makes that sharing safe: a handler that
// tried to change one would throw instead of corrupting the cache.

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
