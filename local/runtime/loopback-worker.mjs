// The worker half of loopbackWireFetch: performs each exchange with node's http client and
// wakes the waiting main thread through the shared signal. Plain JS so that it runs the same
// under jest and tsx (neither transforms TypeScript inside worker threads).
import {request} from 'node:http';
import {workerData} from 'node:worker_threads';

const {port, signal} = workerData;

function flatten(headers) {
  const out = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return out;
}

function exchange(req, timeoutMs) {
  const dropped = {kind: 'dropped', applied: false, latencyMs: 0};
  return new Promise(resolve => {
    const body = Buffer.from(req.body);
    const headers = {...req.headers};
    if (body.length > 0) headers['content-length'] = String(body.length);
    const r = request(
      req.url,
      {method: req.method, headers, timeout: timeoutMs},
      res => {
        const chunks = [];
        res.on('data', c => chunks.push(c));
        res.on('error', () => resolve(dropped));
        res.on('end', () =>
          resolve({
            kind: 'response',
            status: res.statusCode,
            headers: flatten(res.headers),
            body: new Uint8Array(Buffer.concat(chunks)),
            latencyMs: 0,
          }),
        );
      },
    );
    r.on('timeout', () => r.destroy(new Error('timeout')));
    r.on('error', () => resolve(dropped));
    r.end(body);
  });
}

port.on('message', async ({id, req, timeoutMs}) => {
  const outcome = await exchange(req, timeoutMs);
  port.postMessage({id, outcome});
  Atomics.store(signal, 0, id);
  Atomics.notify(signal, 0);
});
