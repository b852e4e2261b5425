/** PUT /api/open/v3/tracking (4.4): sets the tracking of an offer and restarts its link test. */
import {FieldErrors, message, readString} from '../checks';
import {TRACKING_METHODS, YES_NO} from '../enums';
import {setClickUrl} from '../lifecycle';
import type {OperationContext} from './context';
import {assertEditable, readOwnOffer} from './ownership';

/** All four fields of 2.8 are required; click_url may be '' (no link: NOT_EXIST). */
export function updateTracking({
  store,
  account,
  params,
  nowSeconds,
  settings,
}: OperationContext) {
  const errors = new FieldErrors();
  const offer = readOwnOffer(errors, account, params.offer_id);
  const method = readString(errors, 'tracking_method', params.tracking_method, {
    required: true,
    oneOf: TRACKING_METHODS,
  });
  const clickUrl = readClickUrl(errors, params.click_url);
  const serverClick = readString(
    errors,
    'support_server_click',
    params.support_server_click,
    {required: true, oneOf: YES_NO},
  ) as (typeof YES_NO)[number] | undefined;
  errors.throwIfAny();
  assertEditable(offer!);
  offer!.tracking_method = method!;
  offer!.support_server_click = serverClick!;
  const stored = settings.normalisesClickUrl
    ? normalised(clickUrl!)
    : clickUrl!;
  setClickUrl(store, offer!, stored, nowSeconds, settings.clickTestSeconds);
  return {};
}

/**
 * The link as a server that normalises it keeps it (README, assumption 50a): scheme and host
 * in lower case, the rest as sent.
 */
function normalised(url: string): string {
  if (!url) return url;
  const at = url.indexOf('//') + 2;
  const end = url.slice(at).search(/[/?#]|$/) + at;
  return url.slice(0, end).toLowerCase() + url.slice(end);
}

function readClickUrl(errors: FieldErrors, value: unknown): string | undefined {
  if (value === undefined || value === null) {
    return errors.add('click_url', message.required('click_url'));
  }
  const url = readString(errors, 'click_url', value, {empty: 'keep'});
  if (!url) return url;
  return isWebUrl(url)
    ? url
    : errors.add('click_url', message.format('click_url'));
}

function isWebUrl(text: string): boolean {
  try {
    const {protocol} = new URL(text);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}
