/**
 * The control API, served beside the API under /__emulator/ (a prefix no API path can take):
 * what tests in another process use to read the request log, set faults and see or change
 * records. JSON in, JSON out; a failure is {error} with status 400 or 404.
 */
import type {Emulator, EmulatorOptions} from './emulator';
import type {FaultConfig, FaultRule} from './faults';
import type {CampaignPatch, OfferPatch} from './inspect';
import type {BillingType} from './enums';

export const CONTROL_PREFIX = '/__emulator/';

export interface ControlReply {
  status: number;
  body: unknown;
}

type Handler = (emulator: Emulator, input: ControlInput) => unknown;

interface ControlInput {
  /** Captured by the route pattern, e.g. an offer id. */
  param: string;
  url: URL;
  body: unknown;
}

const ROUTES: [string, RegExp, Handler][] = [
  ['GET', /^state$/, emulator => emulator.state()],
  [
    'GET',
    /^requests$/,
    (emulator, {url}) => {
      const since = Number(url.searchParams.get('since') ?? 0);
      return {requests: emulator.requests.filter(entry => entry.seq > since)};
    },
  ],
  ['DELETE', /^requests$/, emulator => emulator.clearRequests()],
  ['GET', /^faults$/, emulator => emulator.faults.config()],
  [
    'PUT',
    /^faults$/,
    (emulator, {body}) =>
      emulator.faults.configure(body as Partial<FaultConfig>),
  ],
  [
    'POST',
    /^faults$/,
    (emulator, {body}) => emulator.faults.add(body as FaultRule),
  ],
  ['DELETE', /^faults$/, emulator => emulator.faults.clear()],
  [
    'POST',
    /^reset$/,
    (emulator, {body}) => emulator.reset(body as EmulatorOptions),
  ],
  [
    'GET',
    /^offers\/(\d+)$/,
    (emulator, {param}) => found(emulator.offerView(+param)),
  ],
  [
    'PATCH',
    /^offers\/(\d+)$/,
    (emulator, {param, body}) => {
      emulator.updateOffer(+param, body as OfferPatch);
      return emulator.offerView(+param);
    },
  ],
  [
    'GET',
    /^campaigns\/(\d+)$/,
    (emulator, {param}) => found(emulator.campaignView(+param)),
  ],
  [
    'PATCH',
    /^campaigns\/(\d+)$/,
    (emulator, {param, body}) => {
      emulator.updateCampaign(+param, body as CampaignPatch);
      return emulator.campaignView(+param);
    },
  ],
  [
    'PUT',
    /^accounts\/([^/]+)\/permissions$/,
    (emulator, {param, body}) =>
      emulator.setPermissions(decodeURIComponent(param), body as BillingType[]),
  ],
];

class NotFound extends Error {}

function found<T>(value: T | undefined): T {
  if (value === undefined) throw new NotFound('no such record');
  return value;
}

export function handleControl(
  emulator: Emulator,
  method: string,
  url: URL,
  body: Uint8Array,
): ControlReply {
  const path = url.pathname.slice(CONTROL_PREFIX.length);
  for (const [routeMethod, pattern, handler] of ROUTES) {
    const match = pattern.exec(path);
    if (!match || routeMethod !== method) continue;
    try {
      const input = body.length
        ? JSON.parse(new TextDecoder().decode(body))
        : {};
      const result = handler(emulator, {
        param: match[1] ?? '',
        url,
        body: input,
      });
      return {status: 200, body: result ?? {}};
    } catch (error) {
      const status = error instanceof NotFound ? 404 : 400;
      return {status, body: {error: (error as Error).message}};
    }
  }
  return {
    status: 404,
    body: {error: `no control route ${method} ${url.pathname}`},
  };
}
