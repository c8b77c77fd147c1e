// Throttled reads of the view store for heavy panels (tables, lists): they
// follow the engine at a few frames per second, while the ring and the clock
// follow every frame. Selectors must be stable (defined at module level or
// memoised), and their result is recomputed only when the panel is notified.
import { useCallback, useRef, useSyncExternalStore } from 'react';
import { useView, type ViewState } from './viewStore';

export function useThrottledView<T>(selector: (s: ViewState) => T, intervalMs: number): T {
  const cache = useRef<{ value: T; selector: (s: ViewState) => T } | null>(null);
  const subscribe = useCallback(
    (notify: () => void) => {
      let timer: ReturnType<typeof setTimeout> | null = null;
      let last = 0;
      const fire = () => {
        timer = null;
        last = performance.now();
        const value = selector(useView.getState());
        if (cache.current && Object.is(cache.current.value, value)) return;
        cache.current = { value, selector };
        notify();
      };
      const unsubscribe = useView.subscribe(() => {
        if (timer !== null) return;
        timer = setTimeout(fire, Math.max(0, intervalMs - (performance.now() - last)));
      });
      return () => {
        unsubscribe();
        if (timer !== null) clearTimeout(timer);
      };
    },
    [selector, intervalMs],
  );
  const getSnapshot = () => {
    if (!cache.current || cache.current.selector !== selector) cache.current = { value: selector(useView.getState()), selector };
    return cache.current.value;
  };
  return useSyncExternalStore(subscribe, getSnapshot);
}
