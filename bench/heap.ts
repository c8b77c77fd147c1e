// Heap figures as live data: a full collection first, so a figure does not
// depend on when V8 last collected (the same run read 470 or 960 MiB
// uncollected). `gc` comes from V8's --expose-gc flag, set at run time.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

/** MiB of the heap still reachable after a full garbage collection. */
export function liveHeapMiB(): number {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
}
