/** The host over HTTP, for a page that calls it with fetch (googleScriptRunShim({endpoint})). */
import type {IncomingMessage, ServerResponse} from 'node:http';
import type {SidebarHost} from './host';

const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Answers one POST of {name, args} with the call's CallAnswer as JSON. */
export async function serveHostCall(
  host: SidebarHost,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) {
      response.writeHead(413).end();
      return;
    }
    chunks.push(chunk as Buffer);
  }
  let call: {name?: unknown; args?: unknown};
  try {
    call = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    response.writeHead(400, {'content-type': 'text/plain'}).end('not JSON');
    return;
  }
  if (typeof call.name !== 'string' || !Array.isArray(call.args)) {
    response
      .writeHead(400, {'content-type': 'text/plain'})
      .end('expected {name, args}');
    return;
  }
  const answer = await host.call(call.name, call.args);
  response
    .writeHead(200, {'content-type': 'application/json; charset=utf-8'})
    .end(JSON.stringify(answer));
}
