// A terminal's line discipline in canonical mode (termios ICANON|ECHO, as a
// pty gives a container's TTY): what a real kubectl sends raw — one key at a
// time — is echoed back and edited here, and whole lines go on to the
// simulated shell, which reads lines. Ctrl-C is the TTY's interrupt (the
// shell is told with \x03), Ctrl-D at the start of a line its end of input.
// The in-page terminal edits lines itself; this serves the real kubectl.

export interface LineOutput {
  /** What the terminal shows back (the echo). */
  echo: string;
  /** What the remote shell reads: complete lines, \x03, \x04. */
  send: string[];
}

export class TtyLine {
  private line = '';
  /** Inside an escape sequence (an arrow key): canonical mode has no use for it. */
  private escape = 0;

  feed(data: string): LineOutput {
    const out: LineOutput = { echo: '', send: [] };
    for (const ch of data) {
      if (this.escape > 0) {
        // ESC [ params final: the final byte ends it.
        if (this.escape === 1 && ch !== '[' && ch !== 'O') this.escape = 0;
        else if (this.escape > 1 && /[@-~]/.test(ch)) this.escape = 0;
        else this.escape++;
        continue;
      }
      switch (ch) {
        case '\x1b':
          this.escape = 1;
          break;
        case '\r':
        case '\n':
          out.echo += '\r\n';
          out.send.push(`${this.line}\n`);
          this.line = '';
          break;
        case '\x7f':
        case '\b':
          if (this.line) {
            this.line = [...this.line].slice(0, -1).join('');
            out.echo += '\b \b';
          }
          break;
        case '\x15': // ^U: the line goes
          out.echo += '\b \b'.repeat([...this.line].length);
          this.line = '';
          break;
        case '\x03':
          out.echo += '^C';
          this.line = '';
          out.send.push('\x03');
          break;
        case '\x04':
          if (this.line === '') out.send.push('\x04');
          break;
        default:
          if (ch >= ' ') {
            this.line += ch;
            out.echo += ch;
          }
      }
    }
    return out;
  }
}
