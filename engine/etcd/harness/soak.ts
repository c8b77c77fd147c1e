// `npm run soak -- --seeds N [--from S] [--seed S] [--members 3|5] [--unsafe-commit] [--nemesis swarm|figure8] [--fault-ms MS] [--verbose]`
// A host (Node CLI) around the pure harness: runs seeds, prints each failing
// seed with the line that reproduces it, and a summary with seeds per minute.
// Wall-clock time is read here only, for the throughput figure.
import { DEFAULTS, runSeed, type SeedOptions, type SeedReport } from './run';

interface Args {
  seeds: number[];
  opts: SeedOptions;
  verbose: boolean;
}

function usage(msg: string): never {
  console.error(`soak: ${msg}`);
  console.error('usage: npm run soak -- --seeds N [--from S] | --seed S   [--members 3|5] [--unsafe-commit] [--nemesis swarm|figure8] [--fault-ms MS] [--verbose]');
  process.exit(2);
}

function parse(argv: string[]): Args {
  let count: number | undefined;
  let from = 1;
  let single: number | undefined;
  const opts: SeedOptions = {};
  let verbose = false;
  const num = (i: number, name: string): number => {
    const v = Number(argv[i]);
    if (argv[i] === undefined || !Number.isInteger(v)) usage(`${name} needs an integer`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    switch (a) {
      case '--seeds':
        count = num(++i, a);
        break;
      case '--from':
        from = num(++i, a);
        break;
      case '--seed':
        single = num(++i, a);
        break;
      case '--members': {
        const m = num(++i, a);
        if (m !== 3 && m !== 5) usage('--members must be 3 or 5');
        opts.members = m;
        break;
      }
      case '--unsafe-commit':
        opts.unsafe = true;
        break;
      case '--nemesis': {
        const v = argv[++i];
        if (v !== 'swarm' && v !== 'figure8') usage('--nemesis must be swarm or figure8');
        opts.nemesis = v;
        break;
      }
      case '--fault-ms':
        opts.faultMs = num(++i, a);
        break;
      case '--verbose':
      case '-v':
        verbose = true;
        break;
      default:
        usage(`unknown argument ${a}`);
    }
  }
  if (single !== undefined) return { seeds: [single], opts, verbose: true };
  const n = count ?? 100;
  return { seeds: Array.from({ length: n }, (_, i) => from + i), opts, verbose };
}

function seconds(t0: bigint): number {
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

function printFailure(r: SeedReport): void {
  const props = [...new Set(r.violations.map((v) => v.property))].join(', ');
  console.log(`FAIL seed ${r.seed} (${r.members} members${r.unsafe ? ', unsafe commit' : ''}): ${props}`);
  console.log(`  reproduce: ${r.reproduce}`);
  console.log(`  knobs: ${r.knobs}`);
  for (const v of r.violations.slice(0, 6)) console.log(`  - [${v.property}] at ${v.at.toFixed(1)} ms: ${v.message.split('\n').join('\n      ')}`);
}

function main(): void {
  const args = parse(process.argv.slice(2));
  const t0 = process.hrtime.bigint();
  let failed = 0;
  let inconclusive = 0;
  let virtualMs = 0;
  let events = 0;
  let recoverySum = 0;
  let recovered = 0;
  const byProperty = new Map<string, number>();
  for (const seed of args.seeds) {
    const t = process.hrtime.bigint();
    const r = runSeed(seed, args.opts);
    virtualMs += r.stats.virtualMs;
    events += r.stats.events;
    if (r.stats.linearizability === 'inconclusive') inconclusive++;
    if (r.stats.recoveryMs >= 0) {
      recoverySum += r.stats.recoveryMs;
      recovered++;
    }
    if (!r.ok) {
      failed++;
      for (const p of new Set(r.violations.map((v) => v.property))) byProperty.set(p, (byProperty.get(p) ?? 0) + 1);
      printFailure(r);
    } else if (args.verbose) {
      const s = r.stats;
      console.log(
        `ok   seed ${seed} (${r.members} members) ${seconds(t).toFixed(2)} s wall, ${(s.virtualMs / 1000).toFixed(1)} s virtual, ${s.events} events, ` +
          `${s.ops} ops (${s.opsOk} ok, ${s.opsError} failed, ${s.opsUnknown} unknown), ${s.revisions} revisions, ${s.watchEvents} watch events, ` +
          `${s.faults} faults${s.nemesisAttempts > 0 ? ` (Figure 8: ${s.nemesisCompleted}/${s.nemesisAttempts} attempts completed)` : ''}, recovered in ${s.recoveryMs} ms, linearizability ${s.linearizability} (${s.linearizabilitySteps} steps), digest ${r.digest}`,
      );
      console.log(`     knobs: ${r.knobs}`);
    }
  }
  const secs = seconds(t0);
  const n = args.seeds.length;
  console.log(
    `\n${n} seed${n === 1 ? '' : 's'}${args.opts.unsafe ? ' (unsafe commit)' : ''}: ${n - failed} ok, ${failed} failed` +
      (byProperty.size > 0 ? ` (${[...byProperty].map(([p, c]) => `${p} ×${c}`).join(', ')})` : '') +
      (inconclusive > 0 ? `, ${inconclusive} linearizability checks inconclusive (budget ${args.opts.linearizabilityBudget ?? DEFAULTS.linearizabilityBudget} steps)` : ''),
  );
  console.log(
    `${secs.toFixed(1)} s wall, ${((n * 60) / secs).toFixed(1)} seeds/minute, ${(virtualMs / 1000 / secs).toFixed(1)}× virtual time, ` +
      `${Math.round(events / secs).toLocaleString('en-US')} events/s` +
      (recovered > 0 ? `, mean recovery ${Math.round(recoverySum / recovered)} ms after healing` : ''),
  );
  process.exitCode = failed > 0 ? 1 : 0;
}

main();
