/**
 * Alerts (issue 21): what changed on the server that needs a person, found by every refresh of
 * offers from what it pulled, what the last pull had (the Offers state's facts) and the
 * conditions still open (a memo in the state book). A condition gives one row when it appears
 * and one when it clears, never one per refresh while it lasts:
 * - `stopped`: the status left RUNNING (reason: offer_stop_reason); clears back at RUNNING;
 * - `reason`: an offer_stop_reason appeared or changed; clears when it is gone. Told on its
 *   own only when the status did not leave RUNNING (or come back) in the same pull;
 * - `click`: click_url_status not PASS `hours` after the add-on set the offer's tracking (at
 *   creation or by Push tracking: state/server-click-memory.ts remembers when, until the URL passes);
 * - `pending`: status PENDING `hours` after start_time.
 *
 * Status and reason values are not enumerated by the API: they are compared as text, an
 * unknown one is never refused, and an empty, missing or null reason is no reason.
 *
 * The first pull of an account (no last pull to compare with) tells nothing of status and
 * reason, and records the offers already PENDING past their start without telling them;
 * `click` is told, being the add-on's own recent work.
 */
import type {Offer} from '../../api/types';
import {textOf} from '../../rules/values';
import {keyParts} from '../../sheets/accounts';
import type {AlertCells} from '../../sheets/alerts-sheet';
import {accountLabel} from '../connect';

/** Facts of an offer the alerts read of each pull. */
export const WATCHED = [
  'offer_name',
  'status',
  'offer_stop_reason',
  'click_url_status',
  'start_time',
] as const;

export type Watched = Partial<Record<(typeof WATCHED)[number], string>>;

/** Of those, what the alerts read of the last pull: the Offers state keeps only these. */
export const COMPARED = ['status', 'offer_stop_reason'] as const;

/** The facts of an offer the alerts compare (or those named): text, '' for nothing. */
export function watchedFacts(
  offer: Offer,
  names: ReadonlyArray<(typeof WATCHED)[number]> = WATCHED,
): Record<string, string> {
  const fields = offer as unknown as Record<string, unknown>;
  return Object.fromEntries(names.map(k => [k, textOf(fields[k])] as const));
}

export type ConditionKind = 'stopped' | 'reason' | 'click' | 'pending';

/** A condition told and not yet cleared. */
export interface OpenCondition {
  /** When it was told (ms). */
  since: number;
  /** The value it was told with (status, reason or click_url_status). */
  value: string;
  /** Noted at a first pull without a row: its clearing is not told either. */
  silent?: true;
}

export const ALERTS_MEMO = 'alerts';

/** The conditions told and not cleared: `offer_id kind` -> the condition. */
export type OpenConditions = Record<string, OpenCondition>;

/** One Alerts row to write: the cells appendAlerts writes. */
export type Alert = AlertCells;

export interface WatchInput {
  /** offer_id -> the facts of the last pull; undefined when there is none to compare with. */
  previous: Record<string, Watched> | undefined;
  /** The offers just pulled. */
  current: ReadonlyArray<{id: string; facts: Watched}>;
  open: OpenConditions;
  /** offer_id -> when the add-on set its tracking (ms), until its click URL passes. */
  tracked: Record<string, number>;
  now: number;
  /** Hours after which a click URL not passed, or a PENDING past its start, is told. */
  hours: number;
}

/** Tracking entries older than this are dropped: told long ago, or an offer of another account. */
const TRACKED_DAYS = 30;
const HOUR = 3600_000;

/** start_time as ms: Unix seconds (or ms) as number or text, or a date text. */
export function startMs(text: string): number | undefined {
  if (text === '') return undefined;
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    return text.length >= 13 ? n : n * 1000;
  }
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? undefined : parsed;
}

const hoursText = (hours: number) =>
  `${hours} ${hours === 1 ? 'hour' : 'hours'}`;

/** The alerts of one pull and the memo after it. */
export function watch(input: WatchInput): {
  alerts: Alert[];
  open: OpenConditions;
  tracked: Record<string, number>;
} {
  const {previous, current, now, hours} = input;
  const open = {...input.open};
  const tracked = {...input.tracked};
  const alerts: Alert[] = [];
  // Quiet is each account's: a sub-account refreshed for the first time beside accounts
  // pulled before has its old PENDING offers noted, not told. A last pull without these facts
  // (an older version's) is no pull to compare with.
  const compared = new Set(
    Object.entries(previous ?? {})
      .filter(([, f]) => f.status !== undefined)
      .map(([key]) => keyParts(key).account),
  );
  for (const {id, facts} of current) {
    const offer = new OfferCheck(id, facts, previous?.[id], open, now);
    const statusTold = checkStatus(offer);
    checkReason(offer, statusTold);
    checkClick(offer, tracked, hours);
    checkPending(offer, hours, !compared.has(keyParts(id).account));
    alerts.push(...offer.found);
  }
  forgetStale(open, tracked, current, now);
  return {alerts, open, tracked};
}

/** One offer of a pull as the checks see it: its facts, what they tell, the memo they update. */
class OfferCheck {
  readonly found: Alert[] = [];
  readonly status: string;
  readonly reason: string;

  constructor(
    readonly id: string,
    readonly facts: Watched,
    readonly before: Watched | undefined,
    private readonly open: OpenConditions,
    readonly now: number,
  ) {
    this.status = facts.status ?? '';
    this.reason = facts.offer_stop_reason ?? '';
  }

  tell(what: string, before: string, after: string): void {
    const {account, id} = keyParts(this.id);
    this.found.push({
      account: accountLabel(account),
      offerId: id,
      offerName: this.facts.offer_name ?? '',
      what,
      before,
      after,
      reason: this.reason,
    });
  }

  condition(kind: ConditionKind): OpenCondition | undefined {
    return this.open[this.key(kind)];
  }

  opened(kind: ConditionKind, value: string, silent?: true): void {
    this.open[this.key(kind)] = {
      since: this.now,
      value,
      ...(silent ? {silent} : {}),
    };
  }

  cleared(kind: ConditionKind): void {
    delete this.open[this.key(kind)];
  }

  private key(kind: ConditionKind): string {
    return `${this.id} ${kind}`;
  }
}

/** The status left RUNNING, or came back; answers whether that was told. */
function checkStatus(offer: OfferCheck): boolean {
  const {status} = offer;
  const stopped = offer.condition('stopped');
  if (stopped && status === 'RUNNING') {
    offer.tell('status back to RUNNING', stopped.value, status);
    offer.cleared('stopped');
    return true;
  }
  if (!stopped && offer.before?.status === 'RUNNING' && status !== 'RUNNING') {
    offer.tell('status left RUNNING', 'RUNNING', status);
    offer.opened('stopped', status);
    return true;
  }
  return false;
}

/** A stop reason appeared, changed, or went: the status alert tells it when that moved too. */
function checkReason(offer: OfferCheck, statusTold: boolean): void {
  const {reason} = offer;
  const was = offer.before?.offer_stop_reason;
  if (was === undefined || reason === was) return;
  if (reason === '') {
    if (offer.condition('reason') && !statusTold) {
      offer.tell('stop reason cleared', was, '');
    }
    offer.cleared('reason');
    return;
  }
  if (!statusTold) {
    offer.tell(
      was === '' ? 'stop reason appeared' : 'stop reason changed',
      was,
      reason,
    );
  }
  offer.opened('reason', reason);
}

/** The click URL has not passed its test some hours after the add-on set it. */
function checkClick(
  offer: OfferCheck,
  tracked: Record<string, number>,
  hours: number,
): void {
  const click = offer.facts.click_url_status ?? '';
  // The tracking memo is by offer id (createOffers and pushTracking write it).
  const {id} = keyParts(offer.id);
  const set = tracked[id];
  const failing = offer.condition('click');
  if (click === 'PASS') {
    if (failing) offer.tell('click URL passed its test', failing.value, click);
    offer.cleared('click');
    delete tracked[id];
  } else if (set !== undefined && offer.now - set >= hours * HOUR && !failing) {
    offer.tell(
      `click URL not passed ${hoursText(hours)} after Offer Desk set it`,
      '',
      click,
    );
    offer.opened('click', click);
  }
}

/**
 * Still PENDING some hours after its start time. A first pull notes it silently: the offer
 * may have waited long before the add-on saw it.
 */
function checkPending(offer: OfferCheck, hours: number, quiet: boolean): void {
  const {status} = offer;
  const pending = offer.condition('pending');
  const start = startMs(offer.facts.start_time ?? '');
  if (status !== 'PENDING') {
    if (pending && !pending.silent) {
      offer.tell('no longer PENDING', 'PENDING', status);
    }
    offer.cleared('pending');
  } else if (
    !pending &&
    start !== undefined &&
    offer.now - start >= hours * HOUR
  ) {
    if (quiet) {
      offer.opened('pending', status, true);
    } else {
      offer.tell(
        `still PENDING ${hoursText(hours)} after start_time`,
        '',
        status,
      );
      offer.opened('pending', status);
    }
  }
}

/** Drops the conditions of offers no longer listed, and tracking entries too old to matter. */
function forgetStale(
  open: OpenConditions,
  tracked: Record<string, number>,
  current: WatchInput['current'],
  now: number,
): void {
  // Only the accounts listed now: another account's conditions wait for its own refresh.
  const listed = new Set(current.map(c => c.id));
  const accounts = new Set(current.map(c => keyParts(c.id).account));
  for (const k of Object.keys(open)) {
    const key = k.slice(0, k.lastIndexOf(' '));
    if (accounts.has(keyParts(key).account) && !listed.has(key)) delete open[k];
  }
  for (const [id, at] of Object.entries(tracked)) {
    if (now - at > TRACKED_DAYS * 24 * HOUR) delete tracked[id];
  }
}

/**
 * One line per alert, for a summary or an email. A value seen for the first time, or one that
 * went, reads "now" or "was": an arrow from or to nothing says nothing.
 */
export function alertLine(alert: Alert): string {
  // A sub-account's offer says whose it is; the main account's, as before accounts, does not.
  const whose =
    alert.account && alert.account !== accountLabel('')
      ? ` of ${alert.account}`
      : '';
  const offer = `offer ${alert.offerId}${alert.offerName ? ` (${alert.offerName})` : ''}${whose}`;
  const {before, after} = alert;
  const change =
    before && after
      ? ` (${before} → ${after})`
      : after
        ? ` (now ${after})`
        : before
          ? ` (was ${before})`
          : '';
  const reason = alert.reason ? `, reason ${alert.reason}` : '';
  return `${offer}: ${alert.what}${change}${reason}`;
}
