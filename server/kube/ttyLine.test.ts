import { describe, expect, it } from 'vitest';
import { TtyLine } from './ttyLine';

describe('the terminal line discipline for a real kubectl -t', () => {
  it('echoes keys, edits the line, and sends it whole on Enter', () => {
    const t = new TtyLine();
    expect(t.feed('ls')).toEqual({ echo: 'ls', send: [] });
    expect(t.feed('x\x7f -l\r')).toEqual({ echo: 'x\b \b -l\r\n', send: ['ls -l\n'] });
    // Arrow keys mean nothing to a canonical-mode line: they are swallowed, not echoed.
    expect(t.feed('a\x1b[Ab\x1bOD\r')).toEqual({ echo: 'ab\r\n', send: ['ab\n'] });
    expect(t.feed('wrong\x15ok\r')).toEqual({ echo: 'wrong\b \b\b \b\b \b\b \b\b \bok\r\n', send: ['ok\n'] });
  });

  it('turns Ctrl-C into the interrupt and Ctrl-D at the start of a line into the end of input', () => {
    const t = new TtyLine();
    expect(t.feed('sleep\x03')).toEqual({ echo: 'sleep^C', send: ['\x03'] });
    expect(t.feed('half\x04')).toEqual({ echo: 'half', send: [] });
    expect(t.feed('\x15\x04')).toEqual({ echo: '\b \b'.repeat(4), send: ['\x04'] });
  });
});
