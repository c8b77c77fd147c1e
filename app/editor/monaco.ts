// Monaco with YAML only, loaded lazily (this module is its own chunk): the
// editor core and its contributions, the YAML tokenizer, monaco-yaml with the
// generated Kubernetes JSON Schema (its own chunk again), and the glue to the
// editor store: the buffer, Apply results drawn at each document's first
// line, `kubectl edit` sessions.
import 'monaco-editor/esm/vs/editor/editor.all.js';
import * as monaco from 'monaco-editor/esm/vs/editor/editor.api';
import 'monaco-editor/esm/vs/basic-languages/yaml/yaml.contribution';
import EditorWorker from 'monaco-editor/esm/vs/editor/editor.worker?worker';
import { configureMonacoYaml, type JSONSchema } from 'monaco-yaml';
import type { ApplyDocResult } from '../../engine/host/protocol';
import type { Theme } from '../store/uiStore';
import { applyBuffer, registerEditor, saveEdit, setText, useEditor, type EditSession } from './editorStore';
import YamlWorker from './yaml.worker?worker';

window.MonacoEnvironment = {
  getWorker(_id: string, label: string) {
    return label === 'yaml' ? new YamlWorker() : new EditorWorker();
  },
};

export const MAIN_URI = 'file:///kubeglass/manifest.yaml';
const SCHEMA_URI = 'kubeglass://schemas/all.json';

// ---- YAML language service and schema -------------------------------------------

const yaml = configureMonacoYaml(monaco, {
  enableSchemaRequest: false,
  hover: true,
  completion: true,
  validate: true,
  format: { enable: true },
  schemas: [],
});

/** The combined schema (generated/schemas/all.json), as its own chunk; absent until generated. */
const schemaModules = import.meta.glob('../../generated/schemas/all.json', { import: 'default' });

let schemaLoaded: Promise<boolean> | null = null;

export function loadSchema(): Promise<boolean> {
  schemaLoaded ??= (async () => {
    const load = Object.values(schemaModules)[0];
    if (!load) return false;
    const schema = (await load()) as JSONSchema;
    // Every YAML model: the manifest buffer and kubectl edit buffers.
    yaml.update({ schemas: [{ uri: SCHEMA_URI, fileMatch: ['**/*.yaml', '*.yaml'], schema }] });
    return true;
  })().catch(() => false);
  return schemaLoaded;
}

// ---- themes ---------------------------------------------------------------------

monaco.editor.defineTheme('kubeglass-dark', {
  base: 'vs-dark',
  inherit: true,
  rules: [
    { token: 'type', foreground: '7ee787' },
    { token: 'string', foreground: 'a5d6ff' },
    { token: 'number', foreground: '79c0ff' },
    { token: 'keyword', foreground: 'ff7b72' },
    { token: 'comment', foreground: '8b949e', fontStyle: 'italic' },
  ],
  colors: {
    'editor.background': '#0d1117',
    'editor.foreground': '#e6edf3',
    'editorLineNumber.foreground': '#6e7681',
    'editorLineNumber.activeForeground': '#e6edf3',
    'editor.lineHighlightBackground': '#161b22',
    'editor.selectionBackground': '#264f78',
    'editorGutter.background': '#0d1117',
    'editorWidget.background': '#161b22',
    'editorWidget.border': '#30363d',
    'editorHoverWidget.background': '#161b22',
    'editorHoverWidget.border': '#30363d',
    'editorSuggestWidget.background': '#161b22',
    'editorSuggestWidget.border': '#30363d',
    'editorSuggestWidget.selectedBackground': '#1f3a5f',
    'editorSuggestWidget.selectedForeground': '#ffffff',
    'editorSuggestWidget.highlightForeground': '#79c0ff',
    'list.activeSelectionBackground': '#1f3a5f',
    'list.activeSelectionForeground': '#ffffff',
    'list.focusBackground': '#1f3a5f',
    'list.focusForeground': '#ffffff',
    'list.hoverBackground': '#1c2330',
  },
});

monaco.editor.defineTheme('kubeglass-light', {
  base: 'vs',
  inherit: true,
  rules: [
    { token: 'type', foreground: '116329' },
    { token: 'string', foreground: '0a3069' },
    { token: 'number', foreground: '0550ae' },
    { token: 'keyword', foreground: 'cf222e' },
    { token: 'comment', foreground: '6e7781', fontStyle: 'italic' },
  ],
  colors: {
    'editor.background': '#ffffff',
    'editor.foreground': '#1f2328',
    'editorLineNumber.foreground': '#8c959f',
    'editorLineNumber.activeForeground': '#1f2328',
    'editor.lineHighlightBackground': '#f6f8fa',
    'editorGutter.background': '#ffffff',
    'editorWidget.background': '#ffffff',
    'editorWidget.border': '#d1d9e0',
    'editorHoverWidget.background': '#ffffff',
    'editorHoverWidget.border': '#d1d9e0',
    'editorSuggestWidget.background': '#ffffff',
    'editorSuggestWidget.border': '#d1d9e0',
    'editorSuggestWidget.selectedBackground': '#ddf4ff',
    'editorSuggestWidget.selectedForeground': '#1f2328',
    'editorSuggestWidget.highlightForeground': '#0969da',
    'list.activeSelectionBackground': '#ddf4ff',
    'list.activeSelectionForeground': '#1f2328',
    'list.focusBackground': '#ddf4ff',
    'list.focusForeground': '#1f2328',
    'list.hoverBackground': '#f3f5f7',
  },
});

/** What every YAML editor of the page shares: type, layout, indentation. */
export const YAML_EDITOR_OPTIONS: monaco.editor.IStandaloneEditorConstructionOptions = {
  automaticLayout: true,
  minimap: { enabled: false },
  fontSize: 13,
  lineHeight: 20,
  fontFamily: "ui-monospace, 'SF Mono', 'Cascadia Mono', 'DejaVu Sans Mono', Menlo, Consolas, monospace",
  scrollBeyondLastLine: false,
  tabSize: 2,
  insertSpaces: true,
  lineNumbersMinChars: 3,
  fixedOverflowWidgets: true,
  padding: { top: 6, bottom: 6 },
  scrollbar: { verticalScrollbarSize: 10, horizontalScrollbarSize: 10 },
};

export function setTheme(theme: Theme): void {
  monaco.editor.setTheme(theme === 'dark' ? 'kubeglass-dark' : 'kubeglass-light');
}

// ---- the editor -----------------------------------------------------------------

export interface MountedEditor {
  dispose(): void;
}

/** Creates the editor in `el`, bound to the editor store. */
export function mountEditor(el: HTMLElement, theme: Theme): MountedEditor {
  setTheme(theme);
  void loadSchema();
  const uri = monaco.Uri.parse(MAIN_URI);
  const main = monaco.editor.getModel(uri) ?? monaco.editor.createModel(useEditor.getState().text, 'yaml', uri);
  if (main.getValue() !== useEditor.getState().text) main.setValue(useEditor.getState().text);
  const editor = monaco.editor.create(el, {
    ...YAML_EDITOR_OPTIONS,
    model: main,
    ariaLabel: 'YAML editor',
    renderLineHighlight: 'line',
    quickSuggestions: { other: true, comments: false, strings: true },
  });

  const disposables: monaco.IDisposable[] = [];
  disposables.push(
    main.onDidChangeContent(() => {
      setText(main.getValue());
    }),
  );
  editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => {
    if (useEditor.getState().edit) saveEdit();
    else void applyBuffer();
  });
  editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => {
    if (useEditor.getState().edit) saveEdit();
  });

  // ---- apply results: a band above each document's first line -----------------
  let zoneIds: string[] = [];
  const lineDecorations = editor.createDecorationsCollection();
  const clearZones = () => {
    if (zoneIds.length === 0) return;
    editor.changeViewZones((acc) => {
      for (const id of zoneIds) acc.removeZone(id);
    });
    zoneIds = [];
  };
  const drawResults = (results: ApplyDocResult[] | null) => {
    clearZones();
    lineDecorations.clear();
    monaco.editor.setModelMarkers(main, 'kubeglass-apply', []);
    if (!results || editor.getModel() !== main) return;
    const layout = editor.getLayoutInfo();
    const width = Math.max(160, layout.contentWidth - layout.verticalScrollbarWidth - 12);
    const lineCount = main.getLineCount();
    editor.changeViewZones((acc) => {
      for (const r of results) {
        const line = Math.min(Math.max(1, r.line), lineCount);
        const { node, height } = resultNode(r, width);
        zoneIds.push(acc.addZone({ afterLineNumber: line - 1, heightInPx: height, domNode: node, suppressMouseDown: false }));
      }
    });
    lineDecorations.set(
      results.map((r) => {
        const line = Math.min(Math.max(1, r.line), lineCount);
        return {
          range: new monaco.Range(line, 1, line, 1),
          options: {
            isWholeLine: true,
            linesDecorationsClassName: `kg-apply-gutter ${r.ok ? 'ok' : 'error'}`,
            overviewRuler: { color: r.ok ? '#3fb950' : '#f85149', position: monaco.editor.OverviewRulerLane.Left },
          },
        };
      }),
    );
    const markers: monaco.editor.IMarkerData[] = [];
    for (const r of results) {
      if (r.errorLine === undefined) continue;
      const line = Math.min(Math.max(1, r.errorLine), lineCount);
      const col = Math.max(1, r.errorColumn ?? 1);
      markers.push({
        severity: monaco.MarkerSeverity.Error,
        message: r.message,
        source: 'kubectl apply',
        startLineNumber: line,
        startColumn: col,
        endLineNumber: line,
        endColumn: Math.max(col + 1, main.getLineMaxColumn(line)),
      });
    }
    monaco.editor.setModelMarkers(main, 'kubeglass-apply', markers);
  };
  drawResults(useEditor.getState().results);
  let lastWidth = editor.getLayoutInfo().contentWidth;
  let relayout = 0;
  disposables.push(
    editor.onDidLayoutChange((l) => {
      if (l.contentWidth === lastWidth) return;
      lastWidth = l.contentWidth;
      cancelAnimationFrame(relayout);
      relayout = requestAnimationFrame(() => drawResults(useEditor.getState().results));
    }),
  );

  // ---- kubectl edit sessions ----------------------------------------------------
  let editModel: monaco.editor.ITextModel | null = null;
  let mainView: monaco.editor.ICodeEditorViewState | null = null;
  const openEdit = (e: EditSession) => {
    closeEdit();
    mainView = editor.saveViewState();
    clearZones();
    lineDecorations.clear();
    const base = e.path.split('/').pop() || 'edit.yaml';
    const editUri = monaco.Uri.parse(`file:///kubectl-edit/${e.editId}/${base.endsWith('.yaml') ? base : `${base}.yaml`}`);
    monaco.editor.getModel(editUri)?.dispose();
    editModel = monaco.editor.createModel(e.content, 'yaml', editUri);
    editor.setModel(editModel);
    // The object starts after kubectl's comment header: put the cursor there.
    const first = e.content.split('\n').findIndex((l) => l.trim() !== '' && !l.startsWith('#'));
    if (first >= 0) {
      editor.setPosition({ lineNumber: first + 1, column: 1 });
      editor.revealLineNearTop(first + 1);
    }
    editor.focus();
  };
  const closeEdit = () => {
    if (!editModel) return;
    editor.setModel(main);
    if (mainView) editor.restoreViewState(mainView);
    editModel.dispose();
    editModel = null;
    drawResults(useEditor.getState().results);
  };
  const pending = useEditor.getState().edit;
  if (pending) openEdit(pending);

  const unsubscribe = useEditor.subscribe((s, prev) => {
    if (s.edit !== prev.edit) {
      if (s.edit) openEdit(s.edit);
      else closeEdit();
    }
    if (s.results !== prev.results && !s.edit) drawResults(s.results);
    // Text set from outside the editor (another tab, a test): follow it.
    if (s.text !== prev.text && s.text !== main.getValue()) main.setValue(s.text);
  });

  registerEditor({
    replaceAll(text: string) {
      if (editor.getModel() !== main) return;
      editor.pushUndoStop();
      editor.executeEdits('kubeglass', [{ range: main.getFullModelRange(), text }]);
      editor.pushUndoStop();
      editor.setPosition({ lineNumber: 1, column: 1 });
      editor.revealLine(1);
    },
    editText: () => editModel?.getValue() ?? null,
    focus: () => editor.focus(),
  });

  return {
    dispose() {
      registerEditor(null);
      unsubscribe();
      cancelAnimationFrame(relayout);
      for (const d of disposables) d.dispose();
      clearZones();
      editor.dispose();
      editModel?.dispose();
      // The main model is kept: a remount finds the same text and undo stack.
    },
  };
}

/** The band drawn above a document: what kubectl said about it. */
function resultNode(r: ApplyDocResult, width: number): { node: HTMLElement; height: number } {
  const node = document.createElement('div');
  node.className = 'kg-apply-zone-wrap';
  const band = document.createElement('div');
  band.className = `kg-apply-zone ${r.ok ? 'ok' : 'error'}`;
  band.setAttribute('data-testid', 'apply-result');
  band.setAttribute('data-ok', String(r.ok));
  band.setAttribute('role', 'status');
  band.style.width = `${width}px`;
  const icon = document.createElement('span');
  icon.className = 'kg-apply-icon';
  icon.setAttribute('aria-hidden', 'true');
  icon.textContent = r.ok ? '✓' : '✕';
  const text = document.createElement('span');
  text.className = 'kg-apply-text';
  text.textContent = r.message || (r.ok ? 'applied' : 'failed');
  band.append(icon, text);
  node.append(band);
  // Measure at the final width, off screen, so the zone is exactly as tall as its text.
  const probe = document.createElement('div');
  probe.style.cssText = 'position:absolute;visibility:hidden;left:-10000px;top:0;';
  probe.append(node);
  document.body.append(probe);
  const height = Math.ceil(band.getBoundingClientRect().height) + 6;
  probe.remove();
  return { node, height };
}
