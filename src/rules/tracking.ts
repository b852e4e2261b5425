/**
 * The tracking rules (API 2.8 and 4.4): PUT tracking takes offer_id, tracking_method,
 * click_url and support_server_click together. click_url may be empty (no link: the offer's
 * click_url_status becomes NOT_EXIST, part 3); a link is a web address.
 */
import type {FieldMessages} from './maintain';
import {lengthProblem} from './values';

/** The columns of a row's tracking, sent together. */
export const TRACKING_FIELDS: readonly string[] = [
  'tracking_method',
  'click_url',
  'support_server_click',
];

/**
 * The longest click_url sent. Its limit is not shown; 2048 characters is the longest link
 * browsers and ad servers commonly take, and a longer cell is a paste gone wrong.
 */
export const MAX_CLICK_URL = 2048;

/** The tracking of an offer as the row has it (text trimmed, null for an empty cell). */
export interface TrackingInput {
  tracking_method: unknown;
  click_url: unknown;
  support_server_click: unknown;
}

export const TRACKING_MESSAGES = {
  method:
    'tracking_method is empty: PUT tracking sends it with click_url and support_server_click',
  serverClickEmpty:
    'support_server_click is empty: pick YES or NO (the offers list does not return it, and PUT tracking needs it)',
  serverClick: 'support_server_click must be YES or NO',
  clickUrl: 'click_url must be a web link starting with http:// or https://',
};

export function checkTracking(input: TrackingInput): FieldMessages {
  const out: FieldMessages = {};
  const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  if (text(input.tracking_method) === '')
    out.tracking_method = TRACKING_MESSAGES.method;
  else {
    const problem = lengthProblem('tracking_method', input.tracking_method);
    if (problem) out.tracking_method = problem;
  }
  const url = text(input.click_url);
  const tooLong = lengthProblem('click_url', url, MAX_CLICK_URL);
  if (tooLong) out.click_url = tooLong;
  else if (url !== '' && !/^https?:\/\/\S+$/i.test(url))
    out.click_url = TRACKING_MESSAGES.clickUrl;
  const serverClick = text(input.support_server_click);
  if (serverClick === '')
    out.support_server_click = TRACKING_MESSAGES.serverClickEmpty;
  else if (serverClick !== 'YES' && serverClick !== 'NO') {
    out.support_server_click = TRACKING_MESSAGES.serverClick;
  }
  return out;
}
