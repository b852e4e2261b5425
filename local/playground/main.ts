/**
 * `npm start`: serves the playground on 127.0.0.1 and prints where, with the demo keys to
 * paste into the sidebar. Port: `--port N`, else the PORT variable, else 8765 (0: any free).
 */
import {DEMO_ACCOUNTS} from '../emulator';
import {startPlayground} from './server';

const DEFAULT_PORT = 8765;

function portFrom(argv: string[], env: NodeJS.ProcessEnv): number {
  const at = argv.findIndex(a => a === '--port' || a.startsWith('--port='));
  const raw =
    at < 0
      ? env.PORT
      : argv[at].includes('=')
        ? argv[at].slice('--port='.length)
        : argv[at + 1];
  if (raw === undefined || raw === '') return DEFAULT_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(
      `The port must be a whole number from 0 to 65535 (got "${raw}").`,
    );
  return port;
}

async function main(): Promise<void> {
  const port = portFrom(process.argv.slice(2), process.env);
  const playground = await startPlayground({port}).catch((e: unknown) => {
    const code = (e as {code?: string}).code;
    throw code === 'EADDRINUSE'
      ? new Error(
          `Port ${port} is taken: run npm start -- --port 8766 (or PORT=0 npm start for any free port).`,
        )
      : e;
  });
  const main = DEMO_ACCOUNTS.main;
  const lines = [
    '',
    `  Offer Desk playground: ${playground.url}`,
    '',
    '  In the sidebar, connect with the demo main account:',
    `    Base URL    ${playground.baseUrl}`,
    `    Access key  ${main.accessKey}`,
    `    Api key     ${main.apiKey}`,
    `  Sub-accounts to act as: ${DEMO_ACCOUNTS.subA.name}, ${DEMO_ACCOUNTS.subB.name}`,
    '',
    "  Demo images in Drive (ids for the Creatives sheet's file column):",
    ...playground.demoFiles.map(f => `    ${f.id}  ${f.name}`),
    '',
    '  Everything runs on this machine: the built dist/ in a local Apps Script runtime,',
    '  against a local Open API emulator with made-up demo data. Ctrl-C stops it.',
    '',
  ];
  console.log(lines.join('\n'));
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void playground.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
