// Splits a command line into words the way a POSIX shell does for simple
// commands: blanks separate words; 'single quotes' keep everything literally;
// "double quotes" keep everything except \" \\ \$ \` (and drop \newline);
// a backslash outside quotes escapes the next character; # starts a comment at
// the beginning of a word. No expansion ($VAR, globs) and no pipes: those are
// reported, not half-supported.

export type SplitResult =
  | { ok: true; words: string[] }
  | { ok: false; error: string };

const BLANK = /[ \t\n]/;
/** Characters a shell would treat as operators when unquoted. */
const OPERATOR = /[|;&<>]/;

export function splitWords(line: string): SplitResult {
  const words: string[] = [];
  let word = '';
  /** Whether a word has started (quotes can make an empty one: ''). */
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (BLANK.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
      continue;
    }
    if (c === '#' && !inWord) break;
    if (OPERATOR.test(c)) {
      return { ok: false, error: `pipes, lists and redirections are not supported here (unquoted '${c}'); quote it if it is part of an argument` };
    }
    inWord = true;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return { ok: false, error: "unexpected EOF while looking for matching `''" };
      word += line.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (c === '"') {
      i++;
      let closed = false;
      while (i < line.length) {
        const d = line[i]!;
        if (d === '"') {
          closed = true;
          i++;
          break;
        }
        if (d === '\\' && i + 1 < line.length) {
          const n = line[i + 1]!;
          if (n === '\n') {
            i += 2;
            continue;
          }
          if (n === '"' || n === '\\' || n === '$' || n === '`') {
            word += n;
            i += 2;
            continue;
          }
        }
        word += d;
        i++;
      }
      if (!closed) return { ok: false, error: 'unexpected EOF while looking for matching `"\'' };
      continue;
    }
    if (c === '\\') {
      if (i + 1 >= line.length) {
        // A trailing backslash continues the line in a shell; here the line ends.
        i++;
        continue;
      }
      const n = line[i + 1]!;
      if (n !== '\n') word += n;
      else if (word === '') inWord = false;
      i += 2;
      continue;
    }
    word += c;
    i++;
  }
  if (inWord) words.push(word);
  return { ok: true, words };
}

/** Quotes a word so splitWords gives it back unchanged. */
export function quoteWord(w: string): string {
  if (w === '') return "''";
  return /^[\w./:@%+=,{}\[\]-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

/**
 * Where the word under the cursor starts: after the last blank that is not
 * inside quotes or escaped. Used by completion to replace the partial word.
 */
export function wordStartAt(line: string, cursor: number): number {
  let start = 0;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < cursor; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (quote === '"' && c === '\\') i++;
      continue;
    }
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (BLANK.test(c)) start = i + 1;
  }
  return start;
}
