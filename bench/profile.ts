/**
 * Which step of the pull grows faster than the work (issue 37): the pull of the scaling series
 * run at each size under V8's sampling profiler, only while the job runs (not while the emulator
 * seeds its offers), and every function's self time compared across sizes, with the
 * collector's pauses. A bundle function is named by the `// src/...` banner that precedes it;
 * the rest by their file (local/runtime, local/emulator, bench). Run as
 * `npm run build && npx tsx bench/profile.ts [--offers 10000,20000] [--top N]`; add
 * `--repeat K` to profile each size K times and keep each function's lowest self time.
 *
 * `--series` instead measures the bench's doubling check alone, as a full run does (its rounds
 * of pulls at 5,000, 10,000 and 20,000 offers, or `--offers`), and exits 1 when it fails;
 * `--plant K` adds a quadratic step to the pulls (plantQuadraticStep), to see that the check
 * catches one: K = 40000 costs some 45% of the add-on's CPU time at 5,000 offers, and fails.
 */
import {Session} from 'node:inspector/promises';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {PerformanceObserver} from 'node:perf_hooks';
import {setFlagsFromString} from 'node:v8';
import {runInNewContext} from 'node:vm';
import {WriteJournal} from '../local/runtime/spreadsheet/write-cache';
import {threadCpuMs} from './cpu';
import {benchDesk, runUntilDone} from './desk';
import {FULL, SCALING_ROUNDS, scalingSeries} from './plan';
import {scalingTable, targetLines} from './report';
import {pullScenario} from './scenarios';
import {doublingCheck, doublings} from './targets';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** One size's profile: self ms by function and by owner, and the collector's pauses. */
interface Sample {
  offers: number;
  /** The process's CPU time: every thread, the collector's helpers among them. */
  cpuMs: number;
  /** The main thread's: the add-on, the stand-ins and the collector's pauses. */
  threadMs: number;
  gcMs: number;
  self: Map<string, number>;
  owners: Map<string, number>;
}

const SAMPLING_US = 200;

/** Module banners of the bundle, by line: [first line, src path], in order. */
function banners(code: string): Array<[number, string]> {
  const out: Array<[number, string]> = [];
  code.split('\n').forEach((line, k) => {
    const m = /^ {2}\/\/ (src\/\S+)$/.exec(line);
    if (m) out.push([k, m[1]]);
  });
  return out;
}

function place(
  frame: CallFrame,
  modules: Array<[number, string]>,
): {owner: string; name: string} {
  const name = frame.functionName || '(anonymous)';
  if (frame.url.endsWith('/dist/Code.js')) {
    const module = modules.filter(([at]) => at <= frame.lineNumber).at(-1);
    return {owner: 'add-on', name: `${module?.[1] ?? 'dist/Code.js'} ${name}`};
  }
  const local = /\/(local\/(runtime|emulator)|bench)\/(.*)$/.exec(frame.url);
  if (local) {
    const owner = local[2] ?? 'bench';
    return {owner, name: `${local[1]}/${local[3]} ${name}`};
  }
  if (name === '(garbage collector)') return {owner: 'gc', name};
  if (name === '(idle)' || name === '(program)') return {owner: name, name};
  return {owner: 'node', name: `${frame.url || '(native)'} ${name}`};
}

const add = (m: Map<string, number>, key: string, ms: number) =>
  m.set(key, (m.get(key) ?? 0) + ms);

/**
 * Self time from the samples' counts, scaled to the thread's CPU time: the gaps between
 * samples are wall time, which another process's turns on a busy machine would lend to
 * whichever function runs next.
 */
function selfTimes(
  profile: Profile,
  modules: Array<[number, string]>,
  threadMs: number,
): Pick<Sample, 'self' | 'owners'> {
  const nodes = new Map(profile.nodes.map(n => [n.id, n.callFrame]));
  const self = new Map<string, number>();
  const owners = new Map<string, number>();
  const ms = threadMs / profile.samples.length;
  profile.samples.forEach(id => {
    const {owner, name} = place(nodes.get(id)!, modules);
    add(self, name, ms);
    add(owners, owner, ms);
  });
  return {self, owners};
}

async function profilePull(
  session: Session,
  offers: number,
  modules: Array<[number, string]>,
  collectGarbage: (() => void) | undefined,
): Promise<Sample> {
  const {rt} = benchDesk(
    {offers, campaigns: FULL.pull.campaigns},
    {collectGarbage},
  );
  collectGarbage?.();
  let gcMs = 0;
  const gc = new PerformanceObserver(list => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  });
  gc.observe({entryTypes: ['gc']});
  await session.post('Profiler.start');
  const start = process.cpuUsage();
  const threadStart = threadCpuMs();
  runUntilDone(rt, 'refreshAll');
  const threadMs = threadCpuMs() - threadStart;
  const cpu = process.cpuUsage(start);
  const {profile} = (await session.post('Profiler.stop')) as {
    profile: Profile;
  };
  // The collector's entries arrive after the synchronous run, on the next turns.
  await new Promise(resolve => setTimeout(resolve, 50));
  gc.disconnect();
  return {
    offers,
    cpuMs: (cpu.user + cpu.system) / 1000,
    threadMs,
    gcMs,
    ...selfTimes(profile, modules, threadMs),
  };
}

/** Each function's lowest self time over the repeats (noise only ever adds). */
function lowest(samples: Sample[]): Sample {
  const min = (pick: (s: Sample) => Map<string, number>) => {
    const keys = new Set(samples.flatMap(s => [...pick(s).keys()]));
    return new Map(
      [...keys].map(k => [
        k,
        Math.min(...samples.map(s => pick(s).get(k) ?? 0)),
      ]),
    );
  };
  return {
    offers: samples[0].offers,
    cpuMs: Math.min(...samples.map(s => s.cpuMs)),
    threadMs: Math.min(...samples.map(s => s.threadMs)),
    gcMs: Math.min(...samples.map(s => s.gcMs)),
    self: min(s => s.self),
    owners: min(s => s.owners),
  };
}

function option(args: string[], name: string, fallback: string): string {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
}

function compare(a: Sample, b: Sample, top: number): string[] {
  const factor = b.offers / a.offers;
  const ms = (n: number) => n.toFixed(0).padStart(7);
  const row = (name: string, x: number, y: number) =>
    `${ms(x)} ${ms(y)} ${(x > 0 ? (y / x).toFixed(2) : '-').padStart(6)}x ${ms(y - factor * x)}  ${name}`;
  const header = `${'ms'.padStart(7)} ${'ms'.padStart(7)} ${'ratio'.padStart(7)} ${'excess'.padStart(7)}  (self time at ${a.offers} and ${b.offers} offers; excess: beyond ${factor}x)`;
  const byExcess = (m: Map<string, number>, n: Map<string, number>) =>
    [...new Set([...m.keys(), ...n.keys()])]
      .map(k => ({k, x: m.get(k) ?? 0, y: n.get(k) ?? 0}))
      .sort((p, q) => q.y - factor * q.x - (p.y - factor * p.x));
  return [
    `process CPU ${a.cpuMs.toFixed(0)} ms -> ${b.cpuMs.toFixed(0)} ms (${(b.cpuMs / a.cpuMs).toFixed(2)}x); ` +
      `main thread ${a.threadMs.toFixed(0)} ms -> ${b.threadMs.toFixed(0)} ms (${(b.threadMs / a.threadMs).toFixed(2)}x); ` +
      `collector pauses ${a.gcMs.toFixed(0)} ms (${((100 * a.gcMs) / a.threadMs).toFixed(0)}%) -> ` +
      `${b.gcMs.toFixed(0)} ms (${((100 * b.gcMs) / b.threadMs).toFixed(0)}%)`,
    '',
    'By owner:',
    header,
    ...byExcess(a.owners, b.owners).map(({k, x, y}) => row(k, x, y)),
    '',
    `The ${top} functions that grow most beyond the work:`,
    header,
    ...byExcess(a.self, b.self)
      .slice(0, top)
      .map(({k, x, y}) => row(k, x, y)),
  ];
}

/** Cells written between two plantings of the quadratic step. */
const PLANT_STRIDE = 1000;

/**
 * A step whose cost grows with the square of the work, in the runtime's write queue (some 50
 * cells per offer pulled): every PLANT_STRIDE-th cell written does `steps` hash steps per
 * PLANT_STRIDE cells written before it.
 */
function plantQuadraticStep(steps: number): void {
  const note = WriteJournal.prototype.note;
  const written = new WeakMap<WriteJournal, number>();
  let sink = 0;
  WriteJournal.prototype.note = function (this: WriteJournal, cell) {
    const before = written.get(this) ?? 0;
    written.set(this, before + 1);
    if (before % PLANT_STRIDE === 0) {
      let h = sink;
      for (let i = (before / PLANT_STRIDE) * steps; i > 0; i--)
        h = Math.imul(h ^ i, 0x01000193);
      sink = h;
    }
    note.call(this, cell);
  };
}

/** The doubling check alone, measured as `npm run bench` measures it. */
function series(sizes: number[], collectGarbage: () => void): void {
  const points = scalingSeries(sizes, (offers, round) => {
    const pull = pullScenario({...FULL.pull, offers}, {collectGarbage});
    console.log(
      `round ${round} of ${SCALING_ROUNDS}, ${offers} offers: ${pull.cpuMs.toFixed(0)} CPU ms, ${pull.emulatorCpuMs.toFixed(0)} of them the emulator's`,
    );
    return pull;
  });
  const steps = doublings(points);
  const check = doublingCheck(steps);
  console.log(
    ['', ...scalingTable(points, steps), '', ...targetLines([check])].join(
      '\n',
    ),
  );
  if (check.verdict !== 'PASS') process.exitCode = 1;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  setFlagsFromString('--expose-gc');
  const collectGarbage = runInNewContext('gc') as () => void;
  const plant = Number(option(args, '--plant', '0'));
  if (plant > 0) plantQuadraticStep(plant);
  if (args.includes('--series')) {
    const sizes = option(args, '--offers', FULL.scaling.join(','));
    series(sizes.split(',').map(Number), collectGarbage);
    return;
  }
  const sizes = option(args, '--offers', '10000,20000').split(',').map(Number);
  const top = Number(option(args, '--top', '25'));
  const repeat = Number(option(args, '--repeat', '1'));
  const modules = banners(
    readFileSync(join(__dirname, '..', 'dist', 'Code.js'), 'utf8'),
  );
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', {interval: SAMPLING_US});
  const samples: Sample[] = [];
  for (const offers of sizes) {
    const runs: Sample[] = [];
    for (let k = 0; k < repeat; k++) {
      runs.push(await profilePull(session, offers, modules, collectGarbage));
      console.error(
        `pulled ${offers} offers: ${runs[k].cpuMs.toFixed(0)} CPU ms, ${runs[k].threadMs.toFixed(0)} on the main thread, ${runs[k].gcMs.toFixed(0)} collecting`,
      );
    }
    samples.push(lowest(runs));
  }
  for (let k = 1; k < samples.length; k++) {
    console.log([...compare(samples[k - 1], samples[k], top), ''].join('\n'));
  }
}

void main();
