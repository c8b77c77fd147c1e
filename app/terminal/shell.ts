// The terminal's shell: a prompt, line editing, history and completion, and a
// few commands (kubectl, clear, help, history). It knows nothing of xterm or
// React: it writes escape sequences to an `io` and reaches the engine through
// `deps`, so it is tested with fakes.
import type { KubectlOutput, KubectlStream } from '../../engine/host/protocol';
import { IMAGES_HELP } from '../../engine/kubelet/runtime/imagesHelp';
import { applyCompletion, formatColumns } from './completion';
import { emptyLine, pushHistory, redrawLine, stepLine, tokenizeInput, type LineState } from './lineEditor';
import { splitWords } from './shellWords';

export interface ShellIo {
  write(s: string): void;
  cols(): number;
}

export interface EditHandle {
  /** The saved text, or null when the user cancelled. */
  done: Promise<string | null>;
  /** Closes the editor without saving. */
  cancel(): void;
}

export interface ShellDeps {
  kubectl(args: string[], files: Record<string, string>, onOutput?: (stream: KubectlStream, text: string) => void): Promise<KubectlOutput>;
  /** Ctrl-C reaches the running kubectl (ends `get -w`). */
  interrupt?(): void;
  /** Keys for a kubectl that reads the terminal (`exec -i`), once it has said so with an 'attach' output. */
  input?(data: string): void;
  editDone(editId: number, text: string): Promise<KubectlOutput>;
  complete(line: string): Promise<string[]>;
  /** The editor's buffer, which `kubectl apply -f editor` reads. */
  editorText(): string;
  /** Other files `-f` may name (the bundled examples: examples/deployment.yaml...). */
  files?(): Record<string, string>;
  /** Opens a `kubectl edit` buffer in the editor. */
  openEdit(edit: NonNullable<KubectlOutput['edit']>): EditHandle;
  isPlaying(): boolean;
  /** Calls back when the simulation pauses or resumes; returns an unsubscribe. */
  onPlayingChange(cb: (playing: boolean) => void): () => void;
  loadHistory(): string[];
  saveHistory(history: readonly string[]): void;
  /** How long a command may wait on a paused simulation before the shell says so (ms; default 400). */
  pauseNoticeDelayMs?: number;
}

export const PROMPT = '\x1b[1;34m$\x1b[0m ';
export const PROMPT_WIDTH = 2;

const RED = '\x1b[31m';
const YELLOW = '\x1b[33m';
const DIM = '\x1b[90m';
const BOLD = '\x1b[1m';
const RESET = '\x1b[0m';

export const BUILTINS = ['kubectl', 'k', 'clear', 'help', 'history'] as const;

export const PAUSED_NOTICE = 'waiting — the simulation is paused; press Play';

const HELP = [
  `${BOLD}Commands${RESET}`,
  `  kubectl ARGS    run kubectl in the simulation (alias: k)`,
  `  kubectl apply -f editor    apply the Editor's buffer`,
  `  kubectl apply -f examples/deployment.yaml   a bundled example (configmap, deployment, service, restricted-pod, alice)`,
  `  clear           clear the screen (Ctrl-L)`,
  `  history         earlier commands`,
  `  help            this text`,
  `  help images     the images pods can run, and what they do`,
  `${BOLD}Keys${RESET}      Tab completes · ↑/↓ history · Ctrl-C cancels`,
  `          Ctrl-A/E start/end · Ctrl-U/K/W delete`,
  `${BOLD}Quoting${RESET}   as in a shell: 'single', "double", back\\ slash`,
  `          (no pipes or redirections)`,
  `${BOLD}Try${RESET}       kubectl get ns`,
  `          kubectl get pods -A`,
  `          kubectl --as alice get secrets`,
  `          kubectl logs -f POD · kubectl exec POD -- ls /`,
  `          kubectl exec -it POD -- sh   (a shell in the pod; exit or Ctrl-D leaves)`,
  `          kubectl drain NODE --ignore-daemonsets`,
];

/** Terminal line endings, and a final newline so the prompt starts on its own row. */
export function terminalText(s: string): string {
  if (s === '') return '';
  const t = s.replace(/\r?\n/g, '\r\n');
  return t.endsWith('\r\n') ? t : `${t}\r\n`;
}

/** Colours each line of `s` (escape codes do not survive a line break in every terminal). */
export function colour(s: string, code: string): string {
  return s.replace(/[^\n]+/g, (line) => `${code}${line}${RESET}`);
}

/**
 * A kubectl reading the terminal (`kubectl exec -it POD -- sh`): lines are
 * edited here and sent on Enter (the remote shell prints its own prompt, so
 * the editor's prompt is whatever the remote left on the cursor's row);
 * with a TTY, Ctrl-C and Ctrl-D go to the remote terminal too.
 */
interface Attached {
  tty: boolean;
  line: LineState;
  /** The text on the cursor's row before the edited line: the remote's prompt, and what was echoed after it. */
  row: string;
}

export class Shell {
  private io: ShellIo | null = null;
  private line: LineState;
  /** Set while a command runs: its generation (Ctrl-C bumps `gen` to disown it). */
  private running: { gen: number; notedPause: boolean; edit: EditHandle | null } | null = null;
  private gen = 0;
  /** Input typed while a command ran, replayed at the next prompt. */
  private typeAhead = '';
  private completing = 0;
  private attached: Attached | null = null;

  constructor(private readonly deps: ShellDeps) {
    this.line = emptyLine(deps.loadHistory());
  }

  get busy(): boolean {
    return this.running !== null;
  }

  /** Connects a terminal: greets it and shows the prompt (and any half-typed line). */
  attach(io: ShellIo): void {
    this.io = io;
    io.write(`${BOLD}Kubeglass terminal${RESET}${DIM}: kubectl in the simulation.${RESET}\r\n${DIM}Type ${RESET}help${DIM} for commands and keys.${RESET}\r\n`);
    if (this.running) io.write(`${DIM}(a command is still running)${RESET}\r\n`);
    else this.showPrompt();
  }

  detach(io: ShellIo): void {
    if (this.io === io) this.io = null;
  }

  private write(s: string): void {
    this.io?.write(s);
  }

  private cols(): number {
    return this.io?.cols() ?? 80;
  }

  private showPrompt(): void {
    this.write(redrawLine(PROMPT, PROMPT_WIDTH, 0, this.line.buf, this.line.cursor, this.cols()));
  }

  private repaint(prevCursor: number): void {
    this.write(redrawLine(PROMPT, PROMPT_WIDTH, prevCursor, this.line.buf, this.line.cursor, this.cols()));
  }

  /** What the terminal sent: keys, escape sequences, pasted text. */
  input(data: string): void {
    if (this.running && this.attached) return this.attachedInput(this.attached, data);
    if (this.running) {
      const ctrlC = data.indexOf('\x03');
      if (ctrlC < 0) {
        this.typeAhead += data;
        return;
      }
      this.interruptRunning();
      data = data.slice(ctrlC + 1);
    }
    const keys = tokenizeInput(data);
    for (let i = 0; i < keys.length; i++) {
      const prev = this.line;
      const { state, effect } = stepLine(prev, keys[i]!);
      this.line = state;
      if (!effect) {
        if (state.buf !== prev.buf || state.cursor !== prev.cursor) this.repaint(prev.cursor);
        continue;
      }
      switch (effect.type) {
        case 'submit': {
          // Leave the cursor after the line, then run it.
          this.line = { ...state, cursor: state.buf.length };
          this.repaint(prev.cursor);
          this.write('\r\n');
          const history = pushHistory(state.history, effect.line);
          this.deps.saveHistory(history);
          this.line = emptyLine(history);
          this.run(effect.line);
          if (this.running) {
            // Keep what follows (a multi-line paste) for the next prompt.
            this.typeAhead += keysToText(keys.slice(i + 1));
            return;
          }
          this.showPrompt();
          break;
        }
        case 'interrupt':
          this.line = { ...state, cursor: state.buf.length };
          this.repaint(prev.cursor);
          this.write('^C\r\n');
          this.line = emptyLine(state.history);
          this.showPrompt();
          break;
        case 'clearScreen':
          this.clearScreen();
          this.showPrompt();
          break;
        case 'complete':
          this.complete();
          break;
      }
    }
  }

  /** Keys while attached: edited locally, sent a line at a time (Ctrl-C and Ctrl-D as the terminal's own). */
  private attachedInput(a: Attached, data: string): void {
    for (const key of tokenizeInput(data)) {
      const prev = a.line;
      if (key.type === 'interrupt') {
        if (!a.tty) {
          // Without a TTY, Ctrl-C stops kubectl itself.
          this.endAttach();
          this.interruptRunning();
          return;
        }
        this.write(`${redrawLine(a.row, a.row.length, prev.cursor, prev.buf, prev.buf.length, this.cols())}^C`);
        a.row += `${prev.buf}^C`;
        a.line = emptyLine(prev.history);
        this.deps.input?.('\x03');
        continue;
      }
      if (key.type === 'eof' && prev.buf === '') {
        this.deps.input?.('\x04');
        continue;
      }
      if (key.type === 'tab') continue;
      const { state, effect } = stepLine(prev, key);
      a.line = state;
      if (effect?.type === 'submit') {
        this.write(`${redrawLine(a.row, a.row.length, prev.cursor, state.buf, state.buf.length, this.cols())}\r\n`);
        a.row = '';
        a.line = emptyLine(pushHistory(state.history, effect.line));
        this.deps.input?.(`${effect.line}\n`);
      } else if (effect?.type === 'clearScreen') {
        this.clearScreen();
        this.write(a.row + a.line.buf);
      } else if (state.buf !== prev.buf || state.cursor !== prev.cursor) this.repaintAttached(a, prev.cursor);
    }
  }

  private repaintAttached(a: Attached, prevCursor: number): void {
    this.write(redrawLine(a.row, a.row.length, prevCursor, a.line.buf, a.line.cursor, this.cols()));
  }

  /** Output of an attached command: written around the line being edited, which is redrawn after it. */
  private attachedOutput(a: Attached, text: string): void {
    const t = a.row + text.replace(/\r?\n/g, '\n');
    const nl = t.lastIndexOf('\n');
    // Rewrite the cursor's row with what came, then the edited line after the new last row.
    this.write(`${redrawLine('', 0, a.line.cursor + a.row.length, '', 0, this.cols())}${t.replace(/\n/g, '\r\n')}`);
    a.row = nl < 0 ? t : t.slice(nl + 1);
    if (a.line.buf) this.write(redrawLine(a.row, a.row.length, a.row.length, a.line.buf, a.line.cursor, this.cols()));
  }

  /** The attached command ended: the next output starts on a fresh row. */
  private endAttach(): void {
    const a = this.attached;
    this.attached = null;
    if (a && (a.row !== '' || a.line.buf !== '')) this.write('\r\n');
  }

  private clearScreen(): void {
    this.write('\x1b[H\x1b[2J\x1b[3J');
  }

  private interruptRunning(): void {
    const r = this.running;
    if (!r) return;
    this.attached = null;
    this.gen++;
    this.running = null;
    this.typeAhead = '';
    r.edit?.cancel();
    this.deps.interrupt?.();
    this.write(`^C\r\n`);
    this.showPrompt();
  }

  /** Runs one command line; sets `running` while it waits for the engine. */
  private run(line: string): void {
    const split = splitWords(line);
    if (!split.ok) {
      this.write(terminalText(colour(`kubeglass: ${split.error}`, RED)));
      return;
    }
    const [cmd, ...args] = split.words;
    if (cmd === undefined) return;
    switch (cmd) {
      case 'kubectl':
      case 'k':
        this.runKubectl(args);
        return;
      case 'clear':
        this.clearScreen();
        return;
      case 'help':
        this.write(terminalText((args[0] === 'images' ? IMAGES_HELP : HELP).join('\n')));
        return;
      case 'history': {
        const h = this.line.history;
        this.write(terminalText(h.map((l, i) => `${String(i + 1).padStart(5)}  ${l}`).join('\n')));
        return;
      }
      default:
        this.write(terminalText(`${RED}${cmd}: command not found${RESET}${DIM} — this terminal runs kubectl; type help${RESET}`));
    }
  }

  private runKubectl(args: string[]): void {
    const gen = ++this.gen;
    const running = { gen, notedPause: false, edit: null as EditHandle | null };
    this.running = running;
    const notePause = () => {
      if (this.running !== running || running.notedPause || running.edit) return;
      running.notedPause = true;
      this.write(`${YELLOW}${PAUSED_NOTICE}${RESET}\r\n`);
    };
    const unsubscribe = this.deps.onPlayingChange((playing) => {
      if (!playing) notePause();
    });
    const current = () => this.running === running;
    void (async () => {
      try {
        // Output streams in as kubectl writes it (kubectl get -w prints each event as it comes).
        let out = await this.deps.kubectl(args, { ...(this.deps.files?.() ?? {}), editor: this.deps.editorText() }, (stream, text) => {
          if (!current()) return;
          if (stream === 'attach') {
            this.attached = { tty: text === 'tty', line: emptyLine(), row: '' };
            // What was typed ahead is the remote's input now.
            const ahead = this.typeAhead;
            this.typeAhead = '';
            if (ahead) this.attachedInput(this.attached, ahead);
          } else if (this.attached) this.attachedOutput(this.attached, text);
          else this.write(terminalText(stream === 'stderr' ? colour(text, RED) : text));
        });
        if (current()) this.endAttach();
        while (current()) {
          this.printOutput(out);
          if (!out.edit) break;
          this.write(`${DIM}Editing ${out.edit.path} in the Editor — Save applies it, Cancel leaves it as it was.${RESET}\r\n`);
          const handle = this.deps.openEdit(out.edit);
          running.edit = handle;
          const saved = await handle.done;
          running.edit = null;
          if (!current()) {
            // Interrupted while editing: the edit still has to end on the engine side.
            void this.deps.editDone(out.edit.editId, out.edit.content).catch(() => undefined);
            return;
          }
          if (!this.deps.isPlaying()) notePause();
          out = await this.deps.editDone(out.edit.editId, saved ?? out.edit.content);
        }
      } catch (err) {
        if (current()) this.write(terminalText(colour(errorText(err), RED)));
      } finally {
        unsubscribe();
        if (current()) this.endAttach();
        if (current()) {
          this.running = null;
          this.showPrompt();
          const ahead = this.typeAhead;
          this.typeAhead = '';
          if (ahead) this.input(ahead);
        }
      }
    })();
    // Right after loading, the clock may not have started yet: only a wait that lasts is worth a word.
    setTimeout(() => {
      if (!this.deps.isPlaying()) notePause();
    }, this.deps.pauseNoticeDelayMs ?? 400);
  }

  private printOutput(out: KubectlOutput): void {
    if (out.stdout) this.write(terminalText(out.stdout));
    if (out.stderr) this.write(terminalText(colour(out.stderr, RED)));
  }

  private complete(): void {
    const { buf, cursor } = this.line;
    const before = buf.slice(0, cursor);
    const ticket = ++this.completing;
    const apply = (candidates: string[]) => {
      // Ignore answers to a line that has changed since.
      if (ticket !== this.completing || this.running || this.line.buf !== buf || this.line.cursor !== cursor) return;
      const r = applyCompletion(buf, cursor, candidates);
      if (r.list) {
        this.write('\r\n' + formatColumns(r.list, this.cols()).join('\r\n') + '\r\n');
        this.showPrompt();
        return;
      }
      const prev = this.line.cursor;
      this.line = { ...this.line, buf: r.buf, cursor: r.cursor };
      this.repaint(prev);
    };
    const firstWord = /^\s*(\S*)$/.exec(before);
    if (firstWord) {
      apply(BUILTINS.filter((b) => b !== 'k'));
      return;
    }
    const m = /^\s*(kubectl|k)(\s.*)$/s.exec(before);
    if (!m) return;
    this.deps.complete(`kubectl${m[2]}`).then(apply, () => undefined);
  }
}

function errorText(err: unknown): string {
  const s = err instanceof Error ? err.message : String(err);
  return s.replace(/^Error: /, '');
}

/** The raw text of some keys (for type-ahead): re-encodes what tokenizeInput read. */
function keysToText(keys: ReturnType<typeof tokenizeInput>): string {
  let out = '';
  for (const k of keys) {
    switch (k.type) {
      case 'text':
        out += k.text;
        break;
      case 'enter':
        out += '\r';
        break;
      case 'tab':
        out += '\t';
        break;
      default:
        // Cursor keys in a paste after Enter are rare; keep the text and the line breaks.
        break;
    }
  }
  return out;
}
