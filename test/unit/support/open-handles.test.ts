import {spawn} from 'node:child_process';
import {createServer} from 'node:http';
import type {AddressInfo} from 'node:net';
import {leftOpen, openSince, resources} from '../../support/open-handles';

/** As long as a closed handle takes to go (it goes on the next turn of the loop). */
const CLOSING_MS = 200;

/**
 * The leak guard (test/support/leak-checked-environment.ts) sees what it must. Worker threads
 * are seen only outside a test file's sandbox: leak-guard.test.ts runs jest on a file leaking one.
 */
describe('what keeps a jest worker alive', () => {
  it('is a listening server, however long one waits, until it is closed', async () => {
    const before = resources();
    const server = createServer();
    await new Promise<void>(resolve =>
      server.listen(0, '127.0.0.1', () => resolve()),
    );
    expect((server.address() as AddressInfo).port).toBeGreaterThan(0);
    await expect(leftOpen(before, CLOSING_MS)).resolves.toEqual([
      'TCPServerWrap ×1',
    ]);
    await new Promise(resolve => server.close(resolve));
    await expect(leftOpen(before, CLOSING_MS)).resolves.toEqual([]);
  });

  it('is a child process, until it has exited', async () => {
    const before = resources();
    const child = spawn(
      process.execPath,
      ['-e', 'setTimeout(() => {}, 60000)'],
      {
        stdio: 'ignore',
      },
    );
    expect(openSince(before)).toEqual(['ProcessWrap ×1']);
    const exited = new Promise(resolve => child.once('exit', resolve));
    child.kill();
    await exited;
    await expect(leftOpen(before, CLOSING_MS)).resolves.toEqual([]);
  });

  it('is a referenced timer, not one unref’d', () => {
    const before = resources();
    const kept = setTimeout(() => undefined, 60000);
    const unref = setTimeout(() => undefined, 60000).unref();
    expect(openSince(before)).toEqual(['Timeout ×1']);
    clearTimeout(kept);
    clearTimeout(unref);
    expect(openSince(before)).toEqual([]);
  });
});
