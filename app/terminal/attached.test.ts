// The terminal while a kubectl reads it (`kubectl exec -it POD -- sh`): keys
// become the remote's input a line at a time, its output lands around the line
// being edited, and what the screen shows is checked through a small VT model.
import { describe, expect, it } from 'vitest';
import type { KubectlOutput, KubectlStream } from '../../engine/host/protocol';
import { Shell, type ShellDeps } from './shell';

/** The rows a terminal shows after `data`: printable text, CR, LF, cursor moves, erase below, clear screen. */
function screen(data: string, cols = 80): string[] {
  const rows: string[][] = [[]];
  let r = 0;
  let c = 0;
  const row = (i: number) => (rows[i] ??= []);
  for (let i = 0; i < data.length; i++) {
    const ch = data[i]!;
    if (ch === '\x1b') {
      const m = /^\x1b\[([0-9;]*)([A-Za-z])/.exec(data.slice(i));
      if (!m) continue;
      i += m[0].length - 1;
      const n = Number(m[1] || '1');
      if (m[2] === 'A') r = Math.max(0, r - n);
      else if (m[2] === 'B') r += n;
      else if (m[2] === 'C') c = Math.min(cols - 1, c + n);
      else if (m[2] === 'J' && m[1] !== '2' && m[1] !== '3') {
        row(r).length = c;
        rows.length = r + 1;
      } else if (m[2] === 'J' || m[2] === 'H') {
        if (m[2] === 'J') rows.length = 0;
        r = 0;
        c = 0;
      }
      continue;
    }
    if (ch === '\r') c = 0;
    else if (ch === '\n') r++;
    else {
      if (c >= cols) {
        r++;
        c = 0;
      }
      const line = row(r);
      while (line.length < c) line.push(' ');
      line[c++] = ch;
    }
  }
  return Array.from({ length: rows.length }, (_, i) => (rows[i] ?? []).join('').trimEnd());
}

function harness() {
  let written = '';
  let onOutput: ((stream: KubectlStream, text: string) => void) | undefined;
  let finish!: (o: KubectlOutput) => void;
  const sent: string[] = [];
  let interrupted = 0;
  const deps: ShellDeps = {
    kubectl: (_args, _files, cb) => {
      onOutput = cb;
      return new Promise((r) => (finish = r));
    },
    interrupt: () => interrupted++,
    input: (data) => sent.push(data),
    editDone: () => Promise.resolve({ stdout: '', stderr: '', exitCode: 0 }),
    complete: () => Promise.resolve([]),
    editorText: () => '',
    openEdit: () => ({ done: Promise.resolve(null), cancel() {} }),
    isPlaying: () => true,
    onPlayingChange: () => () => {},
    loadHistory: () => [],
    saveHistory: () => {},
    pauseNoticeDelayMs: 1e9,
  };
  const shell = new Shell(deps);
  shell.attach({ write: (s) => (written += s), cols: () => 80 });
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return {
    shell,
    sent,
    interrupted: () => interrupted,
    screen: () => screen(written).filter((l, i, all) => l !== '' || i < all.length - 1),
    remote: (text: string) => onOutput!('stdout', text),
    attach: (mode: 'tty' | 'pipe') => onOutput!('attach', mode),
    end: async (o: KubectlOutput) => {
      finish(o);
      await settle();
      await settle();
    },
  };
}

describe('the terminal attached to kubectl exec -it', () => {
  it('sends each edited line on Enter, keeps the remote prompt on the row, and passes Ctrl-C and Ctrl-D through', async () => {
    const h = harness();
    h.shell.input('kubectl exec -it box -- sh\r');
    h.attach('tty');
    h.remote('/ # ');
    h.shell.input('echo hi');
    // Editing happens here, after the remote's prompt.
    h.shell.input('\x7f\x7fey');
    expect(h.screen().at(-1)).toBe('/ # echo ey');
    expect(h.sent).toEqual([]);
    h.shell.input('\r');
    expect(h.sent).toEqual(['echo ey\n']);
    h.remote('ey\r\n/ # ');
    expect(h.screen().slice(-3)).toEqual(['/ # echo ey', 'ey', '/ #']);

    // Output that comes while a line is half typed is written above it; the line stays.
    h.shell.input('ls');
    h.remote('\r\nbackground says hi\r\n/ # ');
    expect(h.screen().slice(-3)).toEqual(['/ #', 'background says hi', '/ # ls']);
    h.shell.input('\x15');

    // Ctrl-C is the remote terminal's: the line is dropped, ^C shown, the remote prompts again.
    h.shell.input('sleep 100\r');
    h.shell.input('\x03');
    expect(h.sent.slice(-2)).toEqual(['sleep 100\n', '\x03']);
    expect(h.interrupted()).toBe(0);
    h.remote('\r\n/ # ');
    expect(h.screen().slice(-2)).toEqual(['^C', '/ #']);
    h.shell.input('half\x03');
    h.remote('\r\n/ # ');
    expect(h.screen().slice(-2)).toEqual(['/ # half^C', '/ #']);

    // Ctrl-D on an empty line is the terminal's end of input.
    h.shell.input('\x04');
    expect(h.sent.at(-1)).toBe('\x04');
    h.remote('\r\n');
    await h.end({ stdout: '', stderr: '', exitCode: 0 });
    // Back at the playground's own prompt, on a fresh row.
    expect(h.screen().at(-1)).toBe('$');
    h.shell.input('x');
    expect(h.sent.at(-1)).toBe('\x04');
  });

  it('without a TTY, Ctrl-C stops kubectl itself and the prompt comes back', async () => {
    const h = harness();
    h.shell.input('kubectl exec -i box -- sh\r');
    h.attach('pipe');
    h.shell.input('echo one\r');
    expect(h.sent).toEqual(['echo one\n']);
    h.remote('one\n');
    h.shell.input('\x03');
    expect(h.interrupted()).toBe(1);
    expect(h.screen().slice(-3)).toEqual(['one', '^C', '$']);
  });

  it('hands what was typed ahead of the attach to the remote', async () => {
    const h = harness();
    h.shell.input('kubectl exec -it box -- sh\r');
    h.shell.input('pwd\r');
    h.attach('tty');
    expect(h.sent).toEqual(['pwd\n']);
  });
});
