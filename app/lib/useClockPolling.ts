// Polls the worker while a view is visible and virtual time moves, at most
// once every `periodMs` of wall time: views that ask the engine for large
// read-outs (scheduler decisions, the cluster map) stay cheap when hidden or paused.
import { useEffect } from 'react';
import { useView } from '../store/viewStore';

export function useClockPolling(visible: boolean, refresh: (first: boolean) => unknown, periodMs: number): void {
  useEffect(() => {
    if (!visible) return;
    void refresh(true);
    let last = performance.now();
    let lastT = useView.getState().clock.virtualTime;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const tick = () => {
      timer = null;
      last = performance.now();
      void refresh(false);
    };
    const unsubscribe = useView.subscribe((s) => {
      if (s.clock.virtualTime === lastT) return;
      lastT = s.clock.virtualTime;
      if (timer !== null) return;
      timer = setTimeout(tick, Math.max(0, periodMs - (performance.now() - last)));
    });
    return () => {
      unsubscribe();
      if (timer !== null) clearTimeout(timer);
    };
    // `refresh` calls a module-level poller: it needs no re-subscription.
  }, [visible, periodMs]);
}
