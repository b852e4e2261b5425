/**
 * A Platform for unit tests of the jobs: the in-process Open API emulator behind the
 * HttpTransport port, an in-memory workbook, and settings already saved for the emulator's
 * demo main account.
 */
import {
  createEmulator,
  DEMO_ACCOUNTS,
  Emulator,
  EmulatorOptions,
} from '../../local/emulator';
import {SettingsStore} from '../../src/jobs/settings-store';
import type {
  HttpRequest,
  HttpResponse,
  HttpTransport,
} from '../../src/platform/ports';
import {FakeClock, fakePlatform} from './fakes';
import {MemoryWorkbook} from './workbook';

export const BASE_URL = 'https://api.emulator.test';

class EmulatorTransport implements HttpTransport {
  readonly sent: HttpRequest[] = [];
  constructor(private readonly emulator: Emulator) {}

  send(request: HttpRequest): HttpResponse {
    return this.sendAll([request])[0];
  }

  sendAll(requests: HttpRequest[]): HttpResponse[] {
    this.sent.push(...requests);
    const outcomes = requests.map(r =>
      this.emulator.handle({
        method: r.method.toUpperCase(),
        url: r.url,
        ...(r.file ? multipart(r) : json(r)),
      }),
    );
    if (outcomes.some(o => o.kind === 'dropped')) {
      throw new Error(`Address unavailable: ${requests[0].url}`);
    }
    return outcomes.map(o => {
      if (o.kind !== 'response') throw new Error('unreachable');
      return {
        status: o.status,
        headers: o.headers,
        text: new TextDecoder().decode(o.body),
      };
    });
  }
}

const BOUNDARY = 'offer-desk-test-boundary';

interface Wire {
  headers: Record<string, string>;
  body: Uint8Array;
}

function json(r: HttpRequest): Wire {
  const type: Record<string, string> =
    r.json !== undefined ? {'content-type': 'application/json'} : {};
  return {
    headers: {...r.headers, ...type},
    body: new TextEncoder().encode(r.json ?? ''),
  };
}

/** The file of an upload as UrlFetchApp sends a payload holding a Blob: multipart/form-data. */
function multipart(r: HttpRequest): Wire {
  const file = r.file!;
  const head = new TextEncoder().encode(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${file.getName() ?? 'file'}"\r\n` +
      `Content-Type: ${file.getContentType() ?? 'application/octet-stream'}\r\n\r\n`,
  );
  const data = Uint8Array.from(file.getBytes(), b => b & 0xff);
  const tail = new TextEncoder().encode(`\r\n--${BOUNDARY}--\r\n`);
  const body = new Uint8Array(head.length + data.length + tail.length);
  body.set(head, 0);
  body.set(data, head.length);
  body.set(tail, head.length + data.length);
  const type = `multipart/form-data; boundary=${BOUNDARY}`;
  return {headers: {...r.headers, 'content-type': type}, body};
}

export function emulatorPlatform(options: EmulatorOptions = {}) {
  const clock = new FakeClock(Date.UTC(2026, 2, 1, 9));
  const emulator = createEmulator({
    offers: 20,
    campaigns: 5,
    ...options,
    now: () => clock.now(),
  });
  const transport = new EmulatorTransport(emulator);
  const workbook = new MemoryWorkbook();
  const platform = fakePlatform(transport, {clock, workbook: () => workbook});
  new SettingsStore(platform.userProperties).saveConnection(
    {
      baseUrl: BASE_URL,
      uploadBaseUrl: '',
      accessKey: DEMO_ACCOUNTS.main.accessKey,
    },
    DEMO_ACCOUNTS.main.apiKey,
  );
  return {platform, emulator, transport, workbook};
}
