// A readline-like line editor as pure data: terminal input is tokenised into
// keys, each key moves a LineState to the next one and may ask the shell for
// something (run the line, complete, clear the screen). redrawLine() builds the
// escape sequences that repaint the prompt line, wrapped lines included.

export type Key =
  | { type: 'text'; text: string }
  | { type: 'enter' }
  | { type: 'backspace' }
  | { type: 'delete' }
  | { type: 'left' }
  | { type: 'right' }
  | { type: 'wordLeft' }
  | { type: 'wordRight' }
  | { type: 'up' }
  | { type: 'down' }
  | { type: 'home' }
  | { type: 'end' }
  | { type: 'tab' }
  /** Ctrl-C. */
  | { type: 'interrupt' }
  /** Ctrl-L. */
  | { type: 'clearScreen' }
  /** Ctrl-U: delete to the start of the line. */
  | { type: 'killBefore' }
  /** Ctrl-K: delete to the end. */
  | { type: 'killAfter' }
  /** Ctrl-W: delete the word before the cursor. */
  | { type: 'killWord' }
  /** Ctrl-D. */
  | { type: 'eof' }
  | { type: 'ignored' };

const CSI_KEYS: Record<string, Key['type']> = {
  A: 'up',
  B: 'down',
  C: 'right',
  D: 'left',
  H: 'home',
  F: 'end',
  '1~': 'home',
  '7~': 'home',
  '4~': 'end',
  '8~': 'end',
  '3~': 'delete',
  '1;5C': 'wordRight',
  '1;5D': 'wordLeft',
  '1;3C': 'wordRight',
  '1;3D': 'wordLeft',
};

const CTRL_KEYS: Record<string, Key['type']> = {
  '\x01': 'home',
  '\x02': 'left',
  '\x03': 'interrupt',
  '\x04': 'eof',
  '\x05': 'end',
  '\x06': 'right',
  '\x08': 'backspace',
  '\x09': 'tab',
  '\x0b': 'killAfter',
  '\x0c': 'clearScreen',
  '\x0d': 'enter',
  '\x0a': 'enter',
  '\x0e': 'down',
  '\x10': 'up',
  '\x15': 'killBefore',
  '\x17': 'killWord',
  '\x7f': 'backspace',
};

/** Splits what the terminal sent (keys, escape sequences, pasted text) into keys. */
export function tokenizeInput(data: string): Key[] {
  const keys: Key[] = [];
  let text = '';
  const flush = () => {
    if (text) keys.push({ type: 'text', text });
    text = '';
  };
  let i = 0;
  while (i < data.length) {
    const c = data[i]!;
    if (c === '\x1b') {
      flush();
      const next = data[i + 1];
      if (next === '[' || next === 'O') {
        // CSI / SS3: parameters then one final byte in @..~.
        let j = i + 2;
        while (j < data.length && !/[@-~]/.test(data[j]!)) j++;
        const body = data.slice(i + 2, j + 1);
        const type = CSI_KEYS[body];
        keys.push(type ? ({ type } as Key) : { type: 'ignored' });
        i = j + 1;
        continue;
      }
      if (next === 'b' || next === 'f') {
        keys.push({ type: next === 'b' ? 'wordLeft' : 'wordRight' });
        i += 2;
        continue;
      }
      keys.push({ type: 'ignored' });
      i += next === undefined ? 1 : 2;
      continue;
    }
    const ctrl = CTRL_KEYS[c];
    if (ctrl) {
      flush();
      // A pasted CRLF is one Enter.
      if (ctrl === 'enter' && c === '\r' && data[i + 1] === '\n') i++;
      keys.push({ type: ctrl } as Key);
      i++;
      continue;
    }
    if (c < ' ') {
      flush();
      keys.push({ type: 'ignored' });
      i++;
      continue;
    }
    text += c;
    i++;
  }
  flush();
  return keys;
}

export interface LineState {
  buf: string;
  cursor: number;
  /** Oldest first. */
  history: readonly string[];
  /** history.length while editing a new line; otherwise the entry shown. */
  hIndex: number;
  /** The new line being typed, kept while browsing history. */
  draft: string;
}

export type LineEffect = { type: 'submit'; line: string } | { type: 'interrupt' } | { type: 'clearScreen' } | { type: 'complete' };

export function emptyLine(history: readonly string[] = []): LineState {
  return { buf: '', cursor: 0, history, hIndex: history.length, draft: '' };
}

const isWordChar = (c: string | undefined) => c !== undefined && !/\s/.test(c);

function wordLeftOf(buf: string, cursor: number): number {
  let i = cursor;
  while (i > 0 && !isWordChar(buf[i - 1])) i--;
  while (i > 0 && isWordChar(buf[i - 1])) i--;
  return i;
}

function wordRightOf(buf: string, cursor: number): number {
  let i = cursor;
  while (i < buf.length && !isWordChar(buf[i])) i++;
  while (i < buf.length && isWordChar(buf[i])) i++;
  return i;
}

/** One key. Pure: returns the next state and what the shell should do, if anything. */
export function stepLine(s: LineState, key: Key): { state: LineState; effect?: LineEffect } {
  const edit = (buf: string, cursor: number): { state: LineState } => ({ state: { ...s, buf, cursor } });
  switch (key.type) {
    case 'text': {
      // Pasted tabs become spaces; other control characters never reach here.
      const t = key.text.replace(/\t/g, ' ');
      return edit(s.buf.slice(0, s.cursor) + t + s.buf.slice(s.cursor), s.cursor + t.length);
    }
    case 'enter':
      return { state: s, effect: { type: 'submit', line: s.buf } };
    case 'backspace':
      if (s.cursor === 0) return { state: s };
      return edit(s.buf.slice(0, s.cursor - 1) + s.buf.slice(s.cursor), s.cursor - 1);
    case 'delete':
      if (s.cursor >= s.buf.length) return { state: s };
      return edit(s.buf.slice(0, s.cursor) + s.buf.slice(s.cursor + 1), s.cursor);
    case 'left':
      return edit(s.buf, Math.max(0, s.cursor - 1));
    case 'right':
      return edit(s.buf, Math.min(s.buf.length, s.cursor + 1));
    case 'wordLeft':
      return edit(s.buf, wordLeftOf(s.buf, s.cursor));
    case 'wordRight':
      return edit(s.buf, wordRightOf(s.buf, s.cursor));
    case 'home':
      return edit(s.buf, 0);
    case 'end':
      return edit(s.buf, s.buf.length);
    case 'up': {
      if (s.hIndex === 0 || s.history.length === 0) return { state: s };
      const draft = s.hIndex === s.history.length ? s.buf : s.draft;
      const hIndex = s.hIndex - 1;
      const buf = s.history[hIndex]!;
      return { state: { ...s, hIndex, draft, buf, cursor: buf.length } };
    }
    case 'down': {
      if (s.hIndex >= s.history.length) return { state: s };
      const hIndex = s.hIndex + 1;
      const buf = hIndex === s.history.length ? s.draft : s.history[hIndex]!;
      return { state: { ...s, hIndex, buf, cursor: buf.length } };
    }
    case 'tab':
      return { state: s, effect: { type: 'complete' } };
    case 'interrupt':
      return { state: s, effect: { type: 'interrupt' } };
    case 'clearScreen':
      return { state: s, effect: { type: 'clearScreen' } };
    case 'killBefore':
      return edit(s.buf.slice(s.cursor), 0);
    case 'killAfter':
      return edit(s.buf.slice(0, s.cursor), s.cursor);
    case 'killWord': {
      const from = wordLeftOf(s.buf, s.cursor);
      return edit(s.buf.slice(0, from) + s.buf.slice(s.cursor), from);
    }
    case 'eof':
      // Ctrl-D deletes forward; on an empty line a shell would exit, which we never do.
      if (s.buf === '') return { state: s };
      return stepLine(s, { type: 'delete' });
    case 'ignored':
      return { state: s };
  }
}

/** The history after running `line`: blank lines and immediate repeats are not kept. */
export function pushHistory(history: readonly string[], line: string, keep = 500): string[] {
  const t = line.trim();
  if (t === '' || history[history.length - 1] === line) return [...history];
  const next = [...history, line];
  return next.length > keep ? next.slice(next.length - keep) : next;
}

/**
 * Escape sequences that repaint the edited line. The terminal cursor is where
 * `prevCursor` left it (columns counted from the prompt's first column, which
 * is at column 0 of its row). Assumes one column per character.
 */
export function redrawLine(prompt: string, promptWidth: number, prevCursor: number, buf: string, cursor: number, cols: number): string {
  const width = Math.max(1, cols);
  let out = '';
  const prevRow = Math.floor((promptWidth + prevCursor) / width);
  if (prevRow > 0) out += `\x1b[${prevRow}A`;
  out += '\r' + prompt + buf;
  const end = promptWidth + buf.length;
  // At the last column the terminal waits to wrap; force the wrap so rows add up.
  if (end > 0 && end % width === 0) out += ' \r';
  out += '\x1b[J';
  out += moveCursor(end, promptWidth + cursor, width);
  return out;
}

/** Moves the terminal cursor from one offset to another (offsets from the prompt start). */
export function moveCursor(from: number, to: number, cols: number): string {
  const fromRow = Math.floor(from / cols);
  const toRow = Math.floor(to / cols);
  const toCol = to % cols;
  let out = '';
  if (fromRow > toRow) out += `\x1b[${fromRow - toRow}A`;
  else if (toRow > fromRow) out += `\x1b[${toRow - fromRow}B`;
  out += '\r';
  if (toCol > 0) out += `\x1b[${toCol}C`;
  return out;
}
