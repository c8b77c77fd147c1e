// The terminal tab: xterm.js (loaded on first show, its own chunk) running the
// page's shell. Colours follow the theme; the size follows the dock.
import { useEffect, useRef, useState } from 'react';
import type { ITheme, Terminal } from '@xterm/xterm';
import { setTerminalReader } from '../debugHook';
import { useUi, type Theme } from '../store/uiStore';
import { usePlaying, useView } from '../store/viewStore';
import { theShell } from './shellInstance';

const THEMES: Record<Theme, ITheme> = {
  dark: {
    background: '#0d1117',
    foreground: '#e6edf3',
    cursor: '#79c0ff',
    cursorAccent: '#0d1117',
    selectionBackground: '#264f78',
    black: '#484f58',
    red: '#e5817b',
    green: '#56d364',
    yellow: '#e3b341',
    blue: '#79c0ff',
    magenta: '#d2a8ff',
    cyan: '#56d4dd',
    white: '#e6edf3',
    brightBlack: '#8b949e',
    brightRed: '#ffa198',
    brightGreen: '#7ee787',
    brightYellow: '#f2cc60',
    brightBlue: '#a5d6ff',
    brightMagenta: '#e2c5ff',
    brightCyan: '#b3f0ff',
    brightWhite: '#ffffff',
  },
  light: {
    background: '#ffffff',
    foreground: '#1f2328',
    cursor: '#0969da',
    cursorAccent: '#ffffff',
    selectionBackground: '#b6d7ff',
    black: '#24292f',
    red: '#b3443d',
    green: '#1a7f37',
    yellow: '#8a5d00',
    blue: '#0969da',
    magenta: '#8250df',
    cyan: '#1b7c83',
    white: '#6e7781',
    brightBlack: '#6e7781',
    brightRed: '#a40e26',
    brightGreen: '#116329',
    brightYellow: '#633c01',
    brightBlue: '#218bff',
    brightMagenta: '#a475f9',
    brightCyan: '#3192aa',
    brightWhite: '#8c959f',
  },
};

/** The live terminal, for the debug hook (end-to-end tests read its text). */
let current: Terminal | null = null;

setTerminalReader(terminalText);

function terminalText(): string {
  const t = current;
  if (!t) return '';
  const b = t.buffer.active;
  const lines: string[] = [];
  for (let i = 0; i < b.length; i++) {
    const line = b.getLine(i);
    if (!line) continue;
    const text = line.translateToString(true);
    if (line.isWrapped && lines.length > 0) lines[lines.length - 1] += text;
    else lines.push(text);
  }
  return lines.join('\n').replace(/\n+$/, '');
}

export function TerminalPanel({ visible }: { visible: boolean }) {
  const el = useRef<HTMLDivElement>(null);
  const theme = useUi((s) => s.theme);
  const term = useRef<Terminal | null>(null);
  const fit = useRef<(() => void) | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  useEffect(() => {
    let disposed = false;
    let cleanup = () => {};
    Promise.all([import('@xterm/xterm'), import('@xterm/addon-fit'), import('@xterm/xterm/css/xterm.css')])
      .then(([{ Terminal: XTerm }, { FitAddon }]) => {
        if (disposed || !el.current) return;
        const t = new XTerm({
          theme: THEMES[useUi.getState().theme],
          fontFamily: "ui-monospace, 'SF Mono', 'Cascadia Mono', 'DejaVu Sans Mono', Menlo, Consolas, monospace",
          fontSize: 12.5,
          lineHeight: 1.2,
          cursorBlink: true,
          scrollback: 5000,
          allowProposedApi: false,
          screenReaderMode: false,
        });
        const fitAddon = new FitAddon();
        t.loadAddon(fitAddon);
        t.open(el.current);
        const doFit = () => {
          if (!el.current || el.current.clientWidth === 0 || el.current.clientHeight === 0) return;
          try {
            fitAddon.fit();
          } catch {
            // Not measurable yet (hidden); the next resize fits it.
          }
        };
        doFit();
        fit.current = doFit;
        const shell = theShell();
        const io = { write: (s: string) => t.write(s), cols: () => t.cols };
        shell.attach(io);
        const onData = t.onData((d) => shell.input(d));
        const ro = new ResizeObserver(() => doFit());
        ro.observe(el.current);
        term.current = t;
        current = t;
        setState('ready');
        cleanup = () => {
          ro.disconnect();
          onData.dispose();
          shell.detach(io);
          if (current === t) current = null;
          t.dispose();
        };
      })
      .catch(() => setState('failed'));
    return () => {
      disposed = true;
      cleanup();
      term.current = null;
      fit.current = null;
    };
  }, []);
  useEffect(() => {
    if (term.current) term.current.options.theme = THEMES[theme];
  }, [theme, state]);
  useEffect(() => {
    if (!visible || !term.current) return;
    fit.current?.();
    term.current.focus();
  }, [visible, state]);
  return (
    <div className="terminal-panel">
      <PausedHint />
      <div ref={el} className="xterm-host" role="region" aria-label="Terminal" data-state={state} />
      {state === 'loading' && <p className="editor-loading muted">Loading the terminal…</p>}
      {state === 'failed' && <p className="editor-loading danger">The terminal failed to load.</p>}
    </div>
  );
}

/** A reminder above the terminal: kubectl waits for virtual time, which stands still while paused. */
function PausedHint() {
  const playing = usePlaying();
  const ready = useView((s) => s.ready);
  if (playing || !ready) return null;
  return (
    <p className="terminal-hint" role="note">
      The simulation is paused: kubectl commands wait until you press Play (or Step).
    </p>
  );
}
