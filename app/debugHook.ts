// `window.__kubeglass`: the latest view data, for end-to-end tests and for
// poking at the simulation from the devtools console. Read-only.
import { useUi } from './store/uiStore';
import { useView, type ViewState } from './store/viewStore';

export interface KubeglassDebugHook {
  /** The latest merged view (members, KV, clock, trace...). */
  view(): ViewState;
  /** The current selection and other UI state. */
  ui(): ReturnType<typeof useUi.getState>;
}

declare global {
  interface Window {
    __kubeglass?: KubeglassDebugHook;
  }
}

export function installDebugHook(): void {
  window.__kubeglass = {
    view: () => useView.getState(),
    ui: () => useUi.getState(),
  };
}
