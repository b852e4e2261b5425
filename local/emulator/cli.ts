/**
 * `npm run emulator -- [--port N] [--seed S] [--offers N] ...`: the emulator over HTTP.
 * Prints `listening on http://HOST:PORT` once it accepts requests (--port 0 picks a free port).
 */
import {parseArgs} from 'node:util';
import {DEMO_ACCOUNTS} from './demo-accounts';
import {createEmulator} from './emulator';
import type {FaultRule} from './faults';
import type {DuplicateUploadShape} from './operations/context';
import {listen} from './server';

const USAGE = `Options:
  --host H               address to bind (default 127.0.0.1)
  --port N               port (default 8787; 0 = any free port)
  --seed S               data and fault seed (default 1)
  --offers N             offers of demo_adv (default 300, 0 = none)
  --campaigns N          campaigns of demo_adv (default 30)
  --materials N          materials of demo_adv (default 60)
  --sub-accounts N       agency sub-accounts of demo_adv besides the demo ones (default 0)
  --lists-sub-accounts W GET sub_adv_account without a name lists the sub-accounts: true (with
                         their keys) or names (without them); default: a name is required (15a)
  --click-test-seconds N seconds until a new click URL passes its test (default 30)
  --duplicate-upload-shape S  where the 'already existed' upload answer puts fmd5 and name:
                         msgAndData (default), msg, data, dataText, validation, md5Only, nested
  --duplicate-upload-status N  HTTP status of that answer (default 200)
  --extra-billing-types L  comma-separated billing types accepted besides the five (e.g. CPA)
  --lists-server-click   the offers list shows support_server_click (assumption 45a)
  --client-shapes        offer and campaign lists in the shapes public clients read: country_code
                         for target_geo (offers, budget items), campaign_id as text (45b)
  --latency-ms N         added latency per API request
  --clock-skew S         emulator clock offset in seconds
  --error-rate R         share (0-1) of API requests answered 5xx
  --error-status N       status of those answers (default 503)
  --rate-limit-rate R    share of API requests answered 429
  --retry-after S        Retry-After of those answers (default 1)
  --drop-rate R          share of API requests whose connection drops after being applied
  --exit-on-stdin-close  stop when standard input closes (for a parent test process)
`;

const FLAGS = {
  host: {type: 'string'},
  port: {type: 'string'},
  seed: {type: 'string'},
  offers: {type: 'string'},
  campaigns: {type: 'string'},
  materials: {type: 'string'},
  'sub-accounts': {type: 'string'},
  'lists-sub-accounts': {type: 'string'},
  'click-test-seconds': {type: 'string'},
  'duplicate-upload-shape': {type: 'string'},
  'duplicate-upload-status': {type: 'string'},
  'extra-billing-types': {type: 'string'},
  'lists-server-click': {type: 'boolean'},
  'client-shapes': {type: 'boolean'},
  'latency-ms': {type: 'string'},
  'clock-skew': {type: 'string'},
  'error-rate': {type: 'string'},
  'error-status': {type: 'string'},
  'rate-limit-rate': {type: 'string'},
  'retry-after': {type: 'string'},
  'drop-rate': {type: 'string'},
  'exit-on-stdin-close': {type: 'boolean'},
  help: {type: 'boolean'},
} as const;

function listsSubAccounts(text: string | undefined): boolean | 'names' {
  if (text === undefined || text === 'false') return false;
  if (text === 'true') return true;
  if (text === 'names') return 'names';
  throw new Error(`--lists-sub-accounts is true, names or false, not ${text}`);
}

async function main(): Promise<void> {
  const {values} = parseArgs({options: FLAGS, strict: true});
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  const number = (name: keyof typeof values): number | undefined => {
    const text = values[name];
    if (text === undefined || typeof text === 'boolean') return undefined;
    const parsed = Number(text);
    if (text === '' || !Number.isFinite(parsed)) {
      throw new Error(`--${name} needs a number, not ${text}`);
    }
    return parsed;
  };
  const rules: FaultRule[] = [];
  const errorRate = number('error-rate');
  if (errorRate) {
    rules.push({
      kind: 'error',
      rate: errorRate,
      status: number('error-status'),
    });
  }
  const rateLimitRate = number('rate-limit-rate');
  if (rateLimitRate) {
    rules.push({
      kind: 'rateLimit',
      rate: rateLimitRate,
      retryAfterSeconds: number('retry-after'),
    });
  }
  const dropRate = number('drop-rate');
  if (dropRate) rules.push({kind: 'drop', rate: dropRate, applied: true});

  const emulator = createEmulator({
    seed: number('seed'),
    offers: number('offers'),
    campaigns: number('campaigns'),
    materials: number('materials'),
    subAccounts: number('sub-accounts'),
    listsSubAccounts: listsSubAccounts(values['lists-sub-accounts']),
    clickTestSeconds: number('click-test-seconds'),
    duplicateUploadShape: values['duplicate-upload-shape'] as
      DuplicateUploadShape | undefined,
    duplicateUploadStatus: number('duplicate-upload-status'),
    extraBillingTypes: values['extra-billing-types']
      ?.split(',')
      .map(t => t.trim())
      .filter(t => t !== ''),
    listsServerClick: values['lists-server-click'] === true,
    clientShapes: values['client-shapes'] === true,
    faults: {
      latencyMs: number('latency-ms'),
      clockSkewSeconds: number('clock-skew'),
      rules,
    },
  });
  const server = await listen(emulator, {
    host: values.host,
    port: number('port') ?? 8787,
  });
  const {main: adv} = DEMO_ACCOUNTS;
  process.stdout.write(
    `listening on ${server.url}\n` +
      `main account ${adv.name}: access-key ${adv.accessKey} api-key ${adv.apiKey}\n` +
      `control API: ${server.url}/__emulator/state\n`,
  );
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (values['exit-on-stdin-close']) {
    process.stdin.on('end', stop);
    process.stdin.on('close', stop);
    process.stdin.resume();
  }
}

main().catch(error => {
  process.stderr.write(`emulator: ${(error as Error).message}\n${USAGE}`);
  process.exit(2);
});
