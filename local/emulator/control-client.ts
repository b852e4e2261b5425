/** An async client of the control API, for tests whose emulator runs in another process. */
import type {EmulatorOptions, RecordedRequest} from './emulator';
import type {BillingType} from './enums';
import type {FaultConfig, FaultRule} from './faults';
import type {CampaignPatch, OfferPatch} from './inspect';

export interface EmulatorControl {
  readonly baseUrl: string;
  /** Logged API requests, optionally only those after sequence number `since`. */
  requests(since?: number): Promise<RecordedRequest[]>;
  clearRequests(): Promise<void>;
  faults(): Promise<FaultConfig>;
  /** Replaces the parts given (rules given replace all rules). */
  setFaults(config: Partial<FaultConfig>): Promise<void>;
  addFault(rule: FaultRule): Promise<void>;
  clearFaults(): Promise<void>;
  state(): Promise<unknown>;
  reset(options?: Omit<EmulatorOptions, 'now'>): Promise<void>;
  /** An offer as the list shows it, plus account, bid_goal, os_version_max, ...; or undefined. */
  offer(offerId: number): Promise<Record<string, unknown> | undefined>;
  updateOffer(offerId: number, patch: OfferPatch): Promise<void>;
  campaign(campaignId: number): Promise<Record<string, unknown> | undefined>;
  updateCampaign(campaignId: number, patch: CampaignPatch): Promise<void>;
  setPermissions(account: string, billingTypes: BillingType[]): Promise<void>;
}

export function connectEmulator(baseUrl: string): EmulatorControl {
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    missingOk = false,
  ): Promise<unknown> => {
    const response = await fetch(`${baseUrl}/__emulator/${path}`, {
      method,
      headers: {'content-type': 'application/json'},
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const parsed = (await response.json()) as {error?: string};
    if (response.status === 404 && missingOk) return undefined;
    if (!response.ok) {
      throw new Error(`emulator control ${method} ${path}: ${parsed.error}`);
    }
    return parsed;
  };
  const done = async (method: string, path: string, body?: unknown) => {
    await call(method, path, body);
  };
  return {
    baseUrl,
    requests: async (since = 0) =>
      (
        (await call('GET', `requests?since=${since}`)) as {
          requests: RecordedRequest[];
        }
      ).requests,
    clearRequests: () => done('DELETE', 'requests'),
    faults: async () => (await call('GET', 'faults')) as FaultConfig,
    setFaults: config => done('PUT', 'faults', config),
    addFault: rule => done('POST', 'faults', rule),
    clearFaults: () => done('DELETE', 'faults'),
    state: () => call('GET', 'state'),
    reset: (options = {}) => done('POST', 'reset', options),
    offer: async offerId =>
      (await call('GET', `offers/${offerId}`, undefined, true)) as
        Record<string, unknown> | undefined,
    updateOffer: (offerId, patch) => done('PATCH', `offers/${offerId}`, patch),
    campaign: async campaignId =>
      (await call('GET', `campaigns/${campaignId}`, undefined, true)) as
        Record<string, unknown> | undefined,
    updateCampaign: (campaignId, patch) =>
      done('PATCH', `campaigns/${campaignId}`, patch),
    setPermissions: (account, billingTypes) =>
      done(
        'PUT',
        `accounts/${encodeURIComponent(account)}/permissions`,
        billingTypes,
      ),
  };
}
