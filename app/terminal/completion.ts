// Tab completion on the edited line: candidates for the word under the cursor
// (from kubectl's completer, or the shell's own commands) either complete it,
// extend it to their common prefix, or are listed.
import { quoteWord, wordStartAt } from './shellWords';

export interface Completed {
  buf: string;
  cursor: number;
  /** Set when the candidates could not be narrowed: show them. */
  list?: string[];
}

/** Longest common prefix. */
export function commonPrefix(words: readonly string[]): string {
  if (words.length === 0) return '';
  let p = words[0]!;
  for (const w of words) {
    let i = 0;
    while (i < p.length && i < w.length && p[i] === w[i]) i++;
    p = p.slice(0, i);
  }
  return p;
}

/** Whether a completed word is finished (a blank follows) or continues (`ns/`, `--output=`). */
function isOpenEnded(w: string): boolean {
  return /[/=:,]$/.test(w);
}

/**
 * Applies completion candidates to the word under the cursor. Candidates may
 * carry a description after a tab (cobra's format); for `--flag=val` words
 * they may be the value alone.
 */
export function applyCompletion(buf: string, cursor: number, candidates: readonly string[]): Completed {
  const start = wordStartAt(buf, cursor);
  const raw = buf.slice(start, cursor);
  // Completion works on the unquoted text of the word.
  const word = raw.replace(/^['"]/, '');
  const eq = word.indexOf('=');
  const names = [...new Set(candidates.map((c) => c.split('\t')[0]!.trim()).filter((c) => c !== ''))].map((c) =>
    !c.startsWith(word) && eq >= 0 && c.startsWith(word.slice(eq + 1)) ? word.slice(0, eq + 1) + c : c,
  );
  const matching = names.filter((c) => c.startsWith(word));
  if (matching.length === 0) return { buf, cursor };
  const replace = (w: string, finished: boolean): Completed => {
    // A finished word gets a blank after it (or the cursor skips the one already there).
    const blankAfter = buf[cursor] === ' ';
    // An open-ended word stays unquoted when it can, so typing can continue.
    const insert = finished ? quoteWord(w) + (blankAfter ? '' : ' ') : /^[\w./:@%+=,{}\[\]-]*$/.test(w) ? w : quoteWord(w);
    const next = buf.slice(0, start) + insert + buf.slice(cursor);
    return { buf: next, cursor: start + insert.length + (finished && blankAfter ? 1 : 0) };
  };
  if (matching.length === 1) {
    const only = matching[0]!;
    return replace(only, !isOpenEnded(only));
  }
  const prefix = commonPrefix(matching);
  if (prefix.length > word.length) return replace(prefix, false);
  return { buf, cursor, list: matching.sort() };
}

/** Lays words out in columns for a terminal `cols` wide, like ls. */
export function formatColumns(words: readonly string[], cols: number): string[] {
  if (words.length === 0) return [];
  const w = Math.max(...words.map((x) => x.length)) + 2;
  const perRow = Math.max(1, Math.floor(cols / w));
  const rows = Math.ceil(words.length / perRow);
  const lines: string[] = [];
  for (let r = 0; r < rows; r++) {
    let line = '';
    for (let c = 0; c < perRow; c++) {
      const x = words[c * rows + r];
      if (x !== undefined) line += x.padEnd(w);
    }
    lines.push(line.trimEnd());
  }
  return lines;
}
