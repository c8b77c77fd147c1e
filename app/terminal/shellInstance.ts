// The page's one shell, wired to the engine worker, the editor and the clock.
// It outlives the terminal widget, so history and a running command survive a
// remount.
import { engine } from '../engineClient';
import { openEdit, useEditor } from '../editor/editorStore';
import { EXAMPLES } from '../editor/examples';
import { useView } from '../store/viewStore';
import { Shell } from './shell';

export const HISTORY_KEY = 'kubeglass.terminal.history';

function loadHistory(): string[] {
  try {
    const v = JSON.parse(window.localStorage?.getItem(HISTORY_KEY) ?? '[]') as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

let shell: Shell | null = null;

export function theShell(): Shell {
  shell ??= new Shell({
    kubectl: (args, files, onOutput) => engine.kubectl(args, files, onOutput),
    interrupt: () => void engine.kubectlInterrupt(),
    input: (data) => void engine.kubectlInput(data),
    editDone: (id, text) => engine.kubectlEditDone(id, text),
    complete: (line) => engine.kubectlComplete(line),
    editorText: () => useEditor.getState().text,
    files: () => Object.fromEntries(EXAMPLES.map((x) => [`examples/${x.id}.yaml`, x.text])),
    openEdit,
    isPlaying: () => useView.getState().clock.playing,
    onPlayingChange: (cb) =>
      useView.subscribe((s, prev) => {
        if (s.clock.playing !== prev.clock.playing) cb(s.clock.playing);
      }),
    loadHistory,
    saveHistory: (h) => {
      try {
        window.localStorage?.setItem(HISTORY_KEY, JSON.stringify(h));
      } catch {
        // History is a convenience.
      }
    },
  });
  return shell;
}
