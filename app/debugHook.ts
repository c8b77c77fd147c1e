// `window.__kubeglass`: the latest view data, for end-to-end tests and for
// poking at the simulation from the devtools console. Read-only.
import { useRequests } from './apiserver/requestStore';
import { useEditor } from './editor/editorStore';
import { useUi } from './store/uiStore';
import { useView, type ViewState } from './store/viewStore';

export interface KubeglassDebugHook {
  /** The latest merged view (members, KV, clock, trace...). */
  view(): ViewState;
  /** The current selection and other UI state. */
  ui(): ReturnType<typeof useUi.getState>;
  /** kube-apiserver request records the UI holds, newest first. */
  requests(): ReturnType<typeof useRequests.getState>['list'];
  /** The YAML editor's buffer. */
  editorText(): string;
  /** What the terminal shows (scrollback included), wrapped lines joined. */
  terminalText(): string;
}

/** Set by the terminal once xterm has loaded. */
let readTerminal: () => string = () => '';

export function setTerminalReader(read: () => string): void {
  readTerminal = read;
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
    requests: () => useRequests.getState().list,
    editorText: () => useEditor.getState().text,
    terminalText: () => readTerminal(),
  };
}
