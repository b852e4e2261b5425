/**
 * The emulator over loopback HTTP: API requests go through the same synchronous handler as
 * in-process, control requests to the control API. Added latency is slept; a dropped connection
 * is a destroyed socket.
 */
import {createServer, type IncomingMessage} from 'node:http';
import type {AddressInfo} from 'node:net';
import {CONTROL_PREFIX, handleControl} from './control';
import type {Emulator} from './emulator';

export interface RunningServer {
  /** e.g. http://127.0.0.1:8080 */
  url: string;
  port: number;
  close(): Promise<void>;
}

export function listen(
  emulator: Emulator,
  {host = '127.0.0.1', port = 0}: {host?: string; port?: number} = {},
): Promise<RunningServer> {
  const server = createServer((request, response) => {
    void serve(request).then(
      reply => {
        if (!reply) {
          request.socket.destroy();
          return;
        }
        response.writeHead(reply.status, reply.headers);
        response.end(reply.body);
      },
      error => {
        response.writeHead(500, {'content-type': 'text/plain; charset=utf-8'});
        response.end(`emulator error: ${(error as Error).stack}`);
      },
    );
  });

  async function serve(request: IncomingMessage) {
    const body = await readAll(request);
    const address = server.address() as AddressInfo;
    const url = new URL(request.url ?? '/', `http://${host}:${address.port}`);
    const method = request.method ?? 'GET';
    if (url.pathname.startsWith(CONTROL_PREFIX)) {
      const reply = handleControl(emulator, method, url, body);
      return {
        status: reply.status,
        headers: {'content-type': 'application/json; charset=utf-8'},
        body: JSON.stringify(reply.body),
      };
    }
    const outcome = emulator.handle({
      method,
      url: url.href,
      headers: flattenHeaders(request.headers),
      body,
    });
    if (outcome.latencyMs > 0) {
      await new Promise(resolve => setTimeout(resolve, outcome.latencyMs));
    }
    return outcome.kind === 'dropped' ? undefined : outcome;
  }

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const actual = (server.address() as AddressInfo).port;
      resolve({
        url: `http://${host}:${actual}`,
        port: actual,
        close: () =>
          new Promise<void>(done => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

async function readAll(request: IncomingMessage): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

function flattenHeaders(
  headers: IncomingMessage['headers'],
): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = [value].flat().join(', ');
  }
  return flat;
}
