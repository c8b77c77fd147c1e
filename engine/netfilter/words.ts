// The words of an iptables-restore line, and the quoting iptables-save gives a
// string back. Both follow iptables: a double quote opens a quoted part (which
// may continue a word) and its closing quote ends the word; inside quotes a
// backslash takes the next character literally (xtables-restore.c
// add_param_to_argv). Saving quotes anything but [A-Za-z0-9_-] and escapes
// " \ ' (xtables.c xtables_save_string).

/** The words of one line; null when a quote is left open. */
export function splitWords(line: string): string[] | null {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '\\' && i + 1 < line.length) word += line[++i];
      else if (c === '"') {
        words.push(word);
        word = '';
        inWord = quoted = false;
      } else word += c;
    } else if (c === '"') quoted = inWord = true;
    else if (c === ' ' || c === '\t') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quoted) return null;
  if (inWord) words.push(word);
  return words;
}

const PLAIN = /^[A-Za-z0-9_-]+$/;

/** A string as iptables-save prints it: bare when plain, else double-quoted. */
export function quoteWord(s: string): string {
  return PLAIN.test(s) ? s : `"${s.replace(/["\\']/g, (c) => `\\${c}`)}"`;
}
