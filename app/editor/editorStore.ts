// The YAML editor's state outside Monaco (which loads lazily): the buffer,
// kept in localStorage; the results of the last Apply; and a `kubectl edit`
// session the terminal opened. Monaco registers a small handle so actions
// that replace the text stay undoable.
import { create } from 'zustand';
import type { ApplyDocResult, KubectlOutput } from '../../engine/host/protocol';
import { engine } from '../engineClient';
import { setDockTab } from '../store/uiStore';
import { DEFAULT_TEXT } from './examples';

export const STORAGE_KEY = 'kubeglass.editor.text';

export interface EditSession {
  editId: number;
  path: string;
  content: string;
  /** Ends the session: the saved text, or null to cancel. */
  finish(text: string | null): void;
}

export interface EditorState {
  text: string;
  /** The last Apply's results, and the text they answer. */
  results: ApplyDocResult[] | null;
  applying: boolean;
  /** Set while `kubectl edit` waits for the user. */
  edit: EditSession | null;
}

function initialText(): string {
  if (typeof window === 'undefined') return DEFAULT_TEXT;
  const t = window.localStorage?.getItem(STORAGE_KEY);
  return t ?? DEFAULT_TEXT;
}

export const useEditor = create<EditorState>()(() => ({ text: initialText(), results: null, applying: false, edit: null }));

// ---- persistence -------------------------------------------------------------

let saveTimer: ReturnType<typeof setTimeout> | null = null;

export function flushText(): void {
  if (saveTimer !== null) clearTimeout(saveTimer);
  saveTimer = null;
  try {
    window.localStorage?.setItem(STORAGE_KEY, useEditor.getState().text);
  } catch {
    // A full or disabled storage only loses persistence.
  }
}

if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', flushText);
  window.addEventListener('beforeunload', flushText);
}

export function setText(text: string): void {
  if (text === useEditor.getState().text) return;
  useEditor.setState({ text });
  if (saveTimer !== null) clearTimeout(saveTimer);
  saveTimer = setTimeout(flushText, 250);
}

// ---- Monaco's handle ------------------------------------------------------------

export interface EditorHandle {
  /** Replaces the whole buffer as one undoable edit. */
  replaceAll(text: string): void;
  /** The text of the open `kubectl edit` buffer. */
  editText(): string | null;
  focus(): void;
}

let handle: EditorHandle | null = null;

export function registerEditor(h: EditorHandle | null): void {
  handle = h;
}

/** Replaces the buffer (undoable when Monaco is up) and forgets old results. */
export function replaceText(text: string): void {
  useEditor.setState({ results: null });
  if (handle) handle.replaceAll(text);
  else setText(text);
  handle?.focus();
}

// ---- apply ----------------------------------------------------------------------

/** Runs `kubectl apply` on every document of the buffer. */
export async function applyBuffer(): Promise<ApplyDocResult[]> {
  const { text, applying, edit } = useEditor.getState();
  if (applying || edit) return [];
  useEditor.setState({ applying: true });
  let results: ApplyDocResult[];
  try {
    results = await engine.apply(text);
  } catch (err) {
    results = [{ index: 0, line: 1, ok: false, message: `error: ${err instanceof Error ? err.message : String(err)}` }];
  }
  useEditor.setState({ applying: false, results });
  return results;
}

export function clearResults(): void {
  useEditor.setState({ results: null });
}

// ---- kubectl edit -----------------------------------------------------------------

/** Opens an edit in the editor; `done` resolves with the saved text, or null when cancelled. */
export function openEdit(e: NonNullable<KubectlOutput['edit']>): { done: Promise<string | null>; cancel(): void } {
  let resolve!: (t: string | null) => void;
  const done = new Promise<string | null>((r) => (resolve = r));
  const finish = (text: string | null) => {
    if (useEditor.getState().edit?.editId !== e.editId) return;
    useEditor.setState({ edit: null });
    setDockTab('terminal');
    resolve(text);
  };
  // An edit still open (its shell was interrupted) is abandoned.
  useEditor.getState().edit?.finish(null);
  useEditor.setState({ edit: { editId: e.editId, path: e.path, content: e.content, finish } });
  setDockTab('editor');
  return { done, cancel: () => finish(null) };
}

/** Save: sends the edited text back to kubectl. */
export function saveEdit(): void {
  const e = useEditor.getState().edit;
  if (e) e.finish(handle?.editText() ?? e.content);
}

export function cancelEdit(): void {
  useEditor.getState().edit?.finish(null);
}
