/**
 * `npm run bench` (issue 9): the built add-on's jobs in the local Apps Script runtime against
 * the in-process emulator, counted, priced and compared with their lower bounds; printed, and
 * appended to bench/results.md. `--quick` runs smaller sizes, judges no target and appends
 * nothing; `--only NAME[,NAME]` runs just those scenarios (at either size), judges no target and
 * appends nothing. The exit code is 1 when a scenario failed or a target is missed.
 */
import {execFileSync} from 'node:child_process';
import {join} from 'node:path';
import {setFlagsFromString} from 'node:v8';
import {runInNewContext} from 'node:vm';
import {describeModel} from './model';
import {LIVE_HEAP_TOLERANCE} from './targets';
import {endBenchDesk} from './desk';
import {FULL, QUICK, onlyScenarios, runBench} from './plan';
import {
  appendResults,
  breakdown,
  quotaLines,
  resultsTable,
  scalingTable,
  targetLines,
} from './report';

function git(args: string[]): string {
  try {
    return execFileSync('git', args, {encoding: 'utf8'}).trim();
  } catch {
    return '';
  }
}

/** The commit measured, and whether the working tree differs from it. */
function commit(): string {
  const head = git(['rev-parse', '--short', 'HEAD']) || 'unknown';
  const dirty = git(['--no-optional-locks', 'status', '--porcelain']) !== '';
  return dirty ? `${head} + uncommitted changes` : head;
}

const NOT_JUDGED =
  '- Not judged in a quick run: the targets hold at full size, where fixed costs weigh little ' +
  'against the bound; at these sizes the ratios only show that every scenario did its work. ' +
  '`npm run bench` judges them.';

const ONLY_NOT_JUDGED =
  '- Not judged in a run of some scenarios: the targets and the scaling series need them all. ' +
  'The ratios above are measured as in a full run.';

/** A full collection before each measured run makes its peak heap its own. */
function garbageCollector(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

function main(): void {
  const quick = process.argv.includes('--quick');
  const only = onlyScenarios(process.argv);
  const sizes = quick ? QUICK : FULL;
  const when = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  const mode = `${quick ? 'quick' : 'full'}${only ? ` (only ${[...only].join(', ')})` : ''}`;
  const heading = `## ${when}, commit ${commit()}, ${mode} run`;
  console.log(heading);
  const run = runBench(
    sizes,
    {
      collectGarbage: garbageCollector(),
      liveHeapTolerance: LIVE_HEAP_TOLERANCE,
    },
    line => console.log(line),
    only,
  );
  const partial = quick || only !== undefined;
  const section = [
    heading,
    '',
    'Latency model (local/runtime DEFAULT_LATENCY) and lower bound:',
    '',
    ...describeModel().map(line => `- ${line}`),
    '',
    ...resultsTable(run.results, run.failures),
    '',
    'Targets:',
    '',
    ...(run.checks === null
      ? [quick ? NOT_JUDGED : ONLY_NOT_JUDGED]
      : targetLines(run.checks)),
    '',
    'UrlFetch calls a day of an hourly scheduled refresh of the agency:',
    '',
    ...(only && !only.has('agency')
      ? ['- not measured: the agency is not among the parts run (--only)']
      : quotaLines(run.quota)),
    '',
    'Scaling of the pull (campaigns fixed):',
    '',
    ...scalingTable(run.points, run.steps),
  ];
  console.log(['', ...section.slice(1)].join('\n'));
  console.log('\nWhere the time goes:\n');
  for (const result of run.results)
    console.log([...breakdown(result), ''].join('\n'));
  if (partial) {
    const what = quick ? 'Quick run' : 'Partial run';
    console.log(
      run.failures.length === 0
        ? `${what}: every scenario did its work; targets not judged; bench/results.md is left as it was.`
        : `${what}: bench/results.md is left as it was.`,
    );
  } else {
    const file = join(__dirname, 'results.md');
    appendResults(file, section);
    console.log(`Appended to ${file}.`);
  }
  const missed = run.checks?.some(c => c.verdict === 'FAIL') ?? false;
  if (run.failures.length > 0 || missed) process.exitCode = 1;
  void endBenchDesk();
}

main();
