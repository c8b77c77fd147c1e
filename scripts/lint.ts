// Project lint: AST rules TypeScript's type-checker does not enforce.
//  - determinism: engine/ never reads the wall clock or an unseeded random source
//    (Date.now, new Date() without arguments, Math.random, setTimeout, setInterval,
//    setImmediate, performance.now); hosts (engine/host/) are exempt.
//  - layering: engine/ imports nothing from app/ or server/.
// Run: npm run lint. Exits 1 and prints file:line:col for each finding.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import ts from 'typescript5';

export interface Finding {
  file: string;
  line: number;
  column: number;
  rule: string;
  message: string;
}

const BANNED_CALLS: Record<string, string> = {
  'Date.now': 'reads the wall clock; use the virtual clock (ctx.now)',
  'Math.random': 'is unseeded; use the seeded Rng (ctx.rng)',
  'performance.now': 'reads the wall clock; use the virtual clock (ctx.now)',
};
const BANNED_GLOBALS: Record<string, string> = {
  setTimeout: 'is a real timer; use ctx.setTimer on the virtual clock',
  setInterval: 'is a real timer; use ctx.setTimer on the virtual clock',
  setImmediate: 'is a real timer; use ctx.setTimer on the virtual clock',
};

export function lintSource(file: string, text: string): Finding[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const findings: Finding[] = [];
  const isEngine = /(^|\/)engine\//.test(file) && !/(^|\/)engine\/host\//.test(file);
  const report = (node: ts.Node, rule: string, message: string) => {
    const { line, character } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    findings.push({ file, line: line + 1, column: character + 1, rule, message });
  };
  const visit = (node: ts.Node): void => {
    if (isEngine) {
      if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
        const name = `${node.expression.text}.${node.name.text}`;
        const why = Object.hasOwn(BANNED_CALLS, name) ? BANNED_CALLS[name] : undefined;
        if (why) report(node, 'determinism', `${name} ${why}`);
      }
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'Date' && (node.arguments?.length ?? 0) === 0) {
        report(node, 'determinism', 'new Date() reads the wall clock; pass a virtual time to new Date(ms)');
      }
      if (ts.isIdentifier(node) && Object.hasOwn(BANNED_GLOBALS, node.text)) {
        const parent = node.parent;
        const isMemberName = ts.isPropertyAccessExpression(parent) && parent.name === node;
        const isDeclName = (ts.isMethodDeclaration(parent) || ts.isPropertyDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name === node;
        if (!isMemberName && !isDeclName) report(node, 'determinism', `${node.text} ${BANNED_GLOBALS[node.text]}`);
      }
      if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        const spec = node.moduleSpecifier.text;
        const target = spec.startsWith('.') ? posix.normalize(posix.join(posix.dirname(file), spec)) : spec;
        if (/^(app|server)(\/|$)/.test(target)) report(node, 'layering', `engine/ must not import from ${spec}`);
        if (/^node:|^(fs|path|http|child_process|worker_threads)$/.test(spec)) report(node, 'layering', `engine/ must not import Node module ${spec}; it runs in a browser worker`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return findings;
}

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(ts|tsx)$/.test(name)) out.push(p);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.cwd();
  const files: string[] = [];
  walk(join(root, 'engine'), files);
  let findings: Finding[] = [];
  for (const f of files) findings = findings.concat(lintSource(relative(root, f).split(sep).join('/'), readFileSync(f, 'utf8')));
  for (const f of findings) console.log(`${f.file}:${f.line}:${f.column}  ${f.rule}  ${f.message}`);
  if (findings.length > 0) {
    console.log(`lint: ${findings.length} problem(s)`);
    process.exit(1);
  }
  console.log(`lint: ${files.length} files clean`);
}
