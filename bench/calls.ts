/**
 * Where a push of 20 budget rows spends its function calls, by folder of src/ (issue 25's
 * "the house"): the built bundle runs in the local runtime against the emulator under V8's
 * precise coverage, which counts every call of every function; a function belongs to the
 * module whose `// src/...` banner (esbuild's) precedes it in the bundle. Run as
 * `npx tsx bench/calls.ts [bundle dir] [--top N]`: dist/ by default, or an earlier release's
 * fixture (test/fixtures/release-2) to compare; `--rows N` pushes N rows instead of 20; `--top N`
 * also lists the N functions called most, by module, where a change would pay.
 */
import {Session} from 'node:inspector/promises';
import {readFileSync} from 'node:fs';
import {join, resolve} from 'node:path';
import {editable} from '../test/support/accounts';
import {offerDesk, recordsOf, typeInto} from '../test/support/offer-desk';

interface FunctionCoverage {
  functionName: string;
  ranges: Array<{startOffset: number; count: number}>;
}
interface ScriptCoverage {
  url: string;
  functions: FunctionCoverage[];
}

/** Module banners of the bundle: offset -> src path. */
function modules(code: string): Array<{at: number; path: string}> {
  const out: Array<{at: number; path: string}> = [];
  const banner = /^ {2}\/\/ (src\/\S+)$/gm;
  for (let m = banner.exec(code); m; m = banner.exec(code)) {
    out.push({at: m.index, path: m[1]});
  }
  return out;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const topAt = args.indexOf('--top');
  const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 0;
  const rowsAt = args.indexOf('--rows');
  const ROWS = rowsAt >= 0 ? Number(args.splice(rowsAt, 2)[1]) : 20;
  const dir = resolve(args[0] ?? 'dist');
  const code = readFileSync(join(dir, 'Code.js'), 'utf8');
  const banners = modules(code);
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', {
    callCount: true,
    detailed: false,
  });
  const {rt, emulator} = offerDesk({offers: ROWS}, {distDir: dir});
  const ids = [...emulator.account('demo_adv').offers.keys()];
  for (const id of ids) editable(emulator, id);
  rt.call('refreshOffers');
  recordsOf(rt, 'Budgets').forEach((_, k) =>
    typeInto(rt, 'Budgets', k + 2, 'daily_cap', String(120 + k)),
  );
  await session.post('Profiler.takePreciseCoverage');
  const summary = rt.call('pushBudgets') as {ok: number};
  const {result} = (await session.post('Profiler.takePreciseCoverage')) as {
    result: ScriptCoverage[];
  };
  await session.post('Profiler.stopPreciseCoverage');
  const bundle = result.filter(s => s.url.endsWith('Code.js'));
  const byFolder = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const files = new Set<string>();
  let calls = 0;
  for (const script of bundle) {
    for (const fn of script.functions) {
      const {startOffset, count} = fn.ranges[0];
      if (count === 0) continue;
      const module = banners.filter(b => b.at <= startOffset).at(-1);
      const folder = module
        ? module.path.split('/').slice(0, 2).join('/')
        : '(bundle)';
      byFolder.set(folder, (byFolder.get(folder) ?? 0) + count);
      files.add(module?.path ?? '(bundle)');
      const name = `${module?.path ?? '(bundle)'} ${fn.functionName || '(anonymous)'}`;
      byFunction.set(name, (byFunction.get(name) ?? 0) + count);
      calls += count;
    }
  }
  console.log(
    `${dir}: pushBudgets of ${ROWS} rows (${summary.ok} OK): ${calls} calls, ${(calls / ROWS).toFixed(1)} a row, in ${files.size} files of ${new Set(banners.map(b => b.path)).size}`,
  );
  for (const [folder, n] of [...byFolder].sort((a, b) => b[1] - a[1])) {
    console.log(`  ${folder}: ${n} (${((100 * n) / calls).toFixed(0)}%)`);
  }
  if (top > 0) console.log(`The ${top} functions called most:`);
  for (const [name, n] of [...byFunction]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)) {
    console.log(`  ${n} ${name}`);
  }
}

void main();
