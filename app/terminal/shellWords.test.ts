import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { quoteWord, splitWords, wordStartAt } from './shellWords';

const words = (line: string) => {
  const r = splitWords(line);
  if (!r.ok) throw new Error(r.error);
  return r.words;
};

describe('splitWords', () => {
  it('splits on blanks, ignoring runs of them', () => {
    expect(words('  kubectl   get\tns  ')).toEqual(['kubectl', 'get', 'ns']);
    expect(words('')).toEqual([]);
  });

  it('keeps single-quoted text literally', () => {
    expect(words(`kubectl get pods -o jsonpath='{.items[*].metadata.name} $HOME \\n'`)).toEqual(['kubectl', 'get', 'pods', '-o', 'jsonpath={.items[*].metadata.name} $HOME \\n']);
  });

  it('handles double quotes and their few escapes', () => {
    expect(words(`echo "a \\"b\\" \\\\ \\n c"`)).toEqual(['echo', 'a "b" \\ \\n c']);
    expect(words(`kubectl label ns x "team=blue green"`)).toEqual(['kubectl', 'label', 'ns', 'x', 'team=blue green']);
  });

  it('joins adjacent quoted and unquoted parts into one word', () => {
    expect(words(`--from-literal=key='a b'"c d"e`)).toEqual(['--from-literal=key=a bc de']);
  });

  it('makes empty words from empty quotes', () => {
    expect(words(`a '' "" b`)).toEqual(['a', '', '', 'b']);
  });

  it('escapes the next character with a backslash outside quotes', () => {
    expect(words('a\\ b c\\\'d')).toEqual(['a b', "c'd"]);
  });

  it('drops a comment that starts a word, but not a # inside one', () => {
    expect(words('kubectl get ns # list them')).toEqual(['kubectl', 'get', 'ns']);
    expect(words('kubectl get ns/a#b')).toEqual(['kubectl', 'get', 'ns/a#b']);
  });

  it('reports an unterminated quote', () => {
    expect(splitWords(`kubectl get 'ns`)).toEqual({ ok: false, error: "unexpected EOF while looking for matching `''" });
    expect(splitWords(`kubectl get "ns`).ok).toBe(false);
  });

  it('refuses unquoted pipes and redirections, but accepts quoted ones', () => {
    expect(splitWords('kubectl get ns | grep kube').ok).toBe(false);
    expect(words(`kubectl get pods -l 'a in (x,y)' --field-selector "a>b"`)).toEqual(['kubectl', 'get', 'pods', '-l', 'a in (x,y)', '--field-selector', 'a>b']);
  });

  it('round-trips any words through quoteWord', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 12 }), { maxLength: 6 }), (ws) => {
        expect(words(ws.map(quoteWord).join(' '))).toEqual(ws);
      }),
    );
  });
});

describe('wordStartAt', () => {
  it('finds the start of the word under the cursor', () => {
    expect(wordStartAt('kubectl get po', 14)).toBe(12);
    expect(wordStartAt('kubectl get ', 12)).toBe(12);
    expect(wordStartAt('kubectl', 7)).toBe(0);
  });

  it('ignores blanks inside quotes and escaped blanks', () => {
    expect(wordStartAt(`kubectl get 'a b`, 16)).toBe(12);
    expect(wordStartAt('kubectl get a\\ b', 16)).toBe(12);
  });
});
