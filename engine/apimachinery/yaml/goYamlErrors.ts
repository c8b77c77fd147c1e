// go-yaml v2's error texts (what sigs.k8s.io/yaml returns, so what kubectl and
// the Kubernetes components print) for the syntax errors of the \`yaml\` package
// we parse with: one mapping, used by kubectl and by configuration loaders.
import type { YAMLError } from 'yaml';

/** go-yaml v2's wording for the usual syntax errors (line numbers as it counts them). */
export function goYamlMessage(e: YAMLError, all: readonly YAMLError[], text: string): string {
  const lastLine = text.replace(/\n+$/, '').split('\n').length;
  const line = e.linePos?.[0]?.line ?? 1;
  const first = e.message.split('\n')[0] ?? '';
  const multiline = all.find((x) => x.code === 'MULTILINE_IMPLICIT_KEY');
  switch (e.code) {
    case 'BLOCK_AS_IMPLICIT_KEY':
      return `yaml: line ${multiline?.linePos?.[1]?.line ?? line}: mapping values are not allowed in this context`;
    case 'MULTILINE_IMPLICIT_KEY':
      return `yaml: line ${e.linePos?.[1]?.line ?? line}: mapping values are not allowed in this context`;
    case 'TAB_AS_INDENT':
      return `yaml: line ${line}: found character that cannot start any token`;
    case 'MISSING_CHAR':
      if (/quote/i.test(first)) return `yaml: line ${line}: found unexpected end of stream`;
      return `yaml: line ${Math.max(1, line - 1)}: did not find expected ${/\}/.test(first) ? "',' or '}'" : "',' or ']'"}`;
    case 'BAD_INDENT':
      // go-yaml names the line after the token that broke the flow collection (0-based): at EOF that is the previous line
      if (/Flow sequence/.test(first)) return `yaml: line ${line > lastLine ? line - 1 : line}: did not find expected ',' or ']'`;
      if (/Flow map/.test(first)) return `yaml: line ${line > lastLine ? line - 1 : line}: did not find expected ',' or '}'`;
      return `yaml: line ${Math.max(1, line - 1)}: did not find expected key`;
    case 'UNEXPECTED_TOKEN':
      if (/block-seq-ind/.test(first)) return `yaml: line ${line}: block sequence entries are not allowed in this context`;
      return `yaml: line ${line}: did not find expected <document start>`;
    default:
      return `yaml: line ${line}: ${first.replace(/ at line \d+, column \d+:?$/, '')}`;
  }
}
