// The profile editor's Monaco instance (lazy: this module is loaded with the
// editor's chunk). It reuses app/editor/monaco.ts for the workers, themes and
// YAML language, with its own model. The model's name does not end in .yaml,
// so the Kubernetes object schema the manifest editor uses does not apply to a
// KubeSchedulerConfiguration.
import * as monaco from 'monaco-editor/esm/vs/editor/editor.api';
import { setTheme, YAML_EDITOR_OPTIONS } from '../editor/monaco';
import type { Theme } from '../store/uiStore';
import { setBuffer, useScheduler } from './schedulerStore';

export { setTheme };

const URI = 'file:///kubeglass/scheduler/KubeSchedulerConfiguration.yml';

export interface MountedProfileEditor {
  dispose(): void;
}

export function mountProfileEditor(el: HTMLElement, theme: Theme, onApply: () => void): MountedProfileEditor {
  setTheme(theme);
  const uri = monaco.Uri.parse(URI);
  const model = monaco.editor.getModel(uri) ?? monaco.editor.createModel(useScheduler.getState().buffer, 'yaml', uri);
  if (model.getValue() !== useScheduler.getState().buffer) model.setValue(useScheduler.getState().buffer);
  const editor = monaco.editor.create(el, {
    ...YAML_EDITOR_OPTIONS,
    model,
    ariaLabel: 'KubeSchedulerConfiguration editor',
    autoClosingBrackets: 'never',
    autoClosingQuotes: 'never',
  });
  const sub = model.onDidChangeContent(() => setBuffer(model.getValue()));
  editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, onApply);
  // The buffer replaced from outside (Reload): follow it.
  const unsubscribe = useScheduler.subscribe((s, prev) => {
    if (s.buffer !== prev.buffer && s.buffer !== model.getValue()) model.setValue(s.buffer);
  });
  return {
    dispose() {
      unsubscribe();
      sub.dispose();
      editor.dispose();
    },
  };
}
