/**
 * The tracking rules (API 2.8 and 4.4): PUT tracking takes offer_id, tracking_method,
 * click_url and support_server_click together. click_url may be empty (no link: the offer's
 * click_url_status becomes NOT_EXIST, part 3); a link is a web address.
 */
import type {FieldMessages} from './maintain';

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
  const url = text(input.click_url);
  if (url !== '' && !/^https?:\/\/\S+$/i.test(url))
    out.click_url = TRACKING_MESSAGES.clickUrl;
  const serverClick = text(input.support_server_click);
  if (serverClick === '')
    out.support_server_click = TRACKING_MESSAGES.serverClickEmpty;
  else if (serverClick !== 'YES' && serverClick !== 'NO') {
    out.support_server_click = TRACKING_MESSAGES.serverClick;
  }
  return out;
}
