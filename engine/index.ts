// The engine's public surface: hosts and the UI import only from here.
export { Engine, PLAYGROUND_CLIENT, type ExecResult } from './facade/engine';
export type * from './facade/types';
export type { Plain } from './sim/serial';
