import { describe, expect, it } from 'vitest';
import { applyCompletion, commonPrefix, formatColumns } from './completion';
import { emptyLine, moveCursor, pushHistory, redrawLine, stepLine, tokenizeInput, type Key, type LineState } from './lineEditor';

function type(s: LineState, data: string): { state: LineState; effects: string[] } {
  const effects: string[] = [];
  for (const k of tokenizeInput(data)) {
    const r = stepLine(s, k);
    s = r.state;
    if (r.effect) effects.push(r.effect.type === 'submit' ? `submit:${r.effect.line}` : r.effect.type);
  }
  return { state: s, effects };
}

describe('tokenizeInput', () => {
  it('reads escape sequences, control keys and text runs', () => {
    const keys = tokenizeInput('ab\x1b[D\x1b[3~\x7f\x1bOH\x1b[F\x03\x0c\t\r');
    expect(keys.map((k: Key) => k.type)).toEqual(['text', 'left', 'delete', 'backspace', 'home', 'end', 'interrupt', 'clearScreen', 'tab', 'enter']);
  });

  it('treats a pasted CRLF as one Enter and ignores unknown sequences', () => {
    expect(tokenizeInput('a\r\nb').map((k) => k.type)).toEqual(['text', 'enter', 'text']);
    expect(tokenizeInput('\x1b[200~x').map((k) => k.type)).toEqual(['ignored', 'text']);
  });
});

describe('stepLine', () => {
  it('inserts at the cursor and moves with left, right, home and end', () => {
    let { state } = type(emptyLine(), 'kubectl gt');
    ({ state } = type(state, '\x1b[D'));
    ({ state } = type(state, 'e'));
    expect(state.buf).toBe('kubectl get');
    expect(state.cursor).toBe(10);
    ({ state } = type(state, '\x1b[H'));
    expect(state.cursor).toBe(0);
    ({ state } = type(state, '\x1b[F'));
    expect(state.cursor).toBe(11);
  });

  it('deletes backwards and forwards, never past the ends', () => {
    let { state } = type(emptyLine(), 'abc\x7f\x7f\x7f\x7f');
    expect(state.buf).toBe('');
    ({ state } = type(state, 'xyz\x1b[H\x1b[3~'));
    expect(state).toMatchObject({ buf: 'yz', cursor: 0 });
  });

  it('kills words and line parts', () => {
    const { state } = type(emptyLine(), 'kubectl get pods\x17');
    expect(state.buf).toBe('kubectl get ');
    expect(type(emptyLine(), 'abc def\x1b[D\x1b[D\x15').state).toMatchObject({ buf: 'ef', cursor: 0 });
    expect(type(emptyLine(), 'abc def\x01\x0b').state.buf).toBe('');
  });

  it('browses history with up and down, keeping the draft', () => {
    let s = emptyLine(['one', 'two']);
    ({ state: s } = type(s, 'dra'));
    ({ state: s } = type(s, '\x1b[A'));
    expect(s.buf).toBe('two');
    ({ state: s } = type(s, '\x1b[A\x1b[A'));
    expect(s.buf).toBe('one');
    ({ state: s } = type(s, '\x1b[B\x1b[B'));
    expect(s).toMatchObject({ buf: 'dra', cursor: 3 });
  });

  it('asks the shell to run, complete, interrupt and clear', () => {
    expect(type(emptyLine(), 'ls\t\x03\x0c\r').effects).toEqual(['complete', 'interrupt', 'clearScreen', 'submit:ls']);
  });
});

describe('pushHistory', () => {
  it('skips blanks and repeats, and stays bounded', () => {
    expect(pushHistory(['a'], '  ')).toEqual(['a']);
    expect(pushHistory(['a'], 'a')).toEqual(['a']);
    expect(pushHistory(['a', 'b'], 'c', 2)).toEqual(['b', 'c']);
  });
});

describe('redrawLine', () => {
  it('repaints a short line and puts the cursor back', () => {
    expect(redrawLine('$ ', 2, 3, 'abcd', 1, 80)).toBe('\r$ abcd\x1b[J\r\x1b[3C');
  });

  it('climbs back over wrapped rows first', () => {
    // 10 columns: prompt + 12 characters spans two rows; the cursor was on the second.
    const out = redrawLine('$ ', 2, 12, 'abcdefghijkl', 12, 10);
    expect(out.startsWith('\x1b[1A\r$ abcdefghijkl')).toBe(true);
  });

  it('forces the wrap when the line ends at the last column', () => {
    expect(redrawLine('$ ', 2, 0, 'abcdefgh', 8, 10)).toBe('\r$ abcdefgh \r\x1b[J\r');
  });

  it('moves between rows', () => {
    expect(moveCursor(25, 3, 10)).toBe('\x1b[2A\r\x1b[3C');
    expect(moveCursor(3, 12, 10)).toBe('\x1b[1B\r\x1b[2C');
  });
});

describe('applyCompletion', () => {
  it('completes a single candidate and adds a blank', () => {
    expect(applyCompletion('kubectl get na', 14, ['namespaces'])).toEqual({ buf: 'kubectl get namespaces ', cursor: 23 });
  });

  it('extends to the common prefix, then lists', () => {
    expect(applyCompletion('kubectl get p', 13, ['pods', 'podtemplates', 'persistentvolumes'])).toEqual({
      buf: 'kubectl get p',
      cursor: 13,
      list: ['persistentvolumes', 'pods', 'podtemplates'],
    });
    expect(applyCompletion('kubectl get po', 14, ['pods', 'podtemplates'])).toEqual({ buf: 'kubectl get pod', cursor: 15 });
  });

  it('keeps open-ended words open and strips descriptions', () => {
    expect(applyCompletion('kubectl get --out', 17, ['--output=\tOutput format'])).toEqual({ buf: 'kubectl get --output=', cursor: 21 });
  });

  it('accepts bare values for a --flag= word', () => {
    expect(applyCompletion('kubectl get ns -o=ya', 20, ['yaml'])).toEqual({ buf: 'kubectl get ns -o=yaml ', cursor: 23 });
  });

  it('completes in the middle of a line', () => {
    expect(applyCompletion('kubectl ge ns', 10, ['get'])).toEqual({ buf: 'kubectl get ns', cursor: 12 });
  });

  it('leaves the line alone when nothing matches', () => {
    expect(applyCompletion('kubectl zz', 10, ['get'])).toEqual({ buf: 'kubectl zz', cursor: 10 });
  });
});

describe('columns', () => {
  it('lays words out top to bottom, then left to right', () => {
    expect(commonPrefix(['abc', 'abd'])).toBe('ab');
    expect(formatColumns(['a', 'bb', 'c', 'd', 'e'], 9)).toEqual(['a   d', 'bb  e', 'c']);
  });
});
