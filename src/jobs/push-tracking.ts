/**
 * pushTracking (API 4.4): Offers rows whose tracking_method, click_url or
 * support_server_click differ from what was last pulled are sent with PUT tracking, all four
 * fields of 2.8 together. support_server_click is not returned by the offers list: it must be
 * picked (YES or NO) before an offer's tracking can be pushed. The link test starts again: the
 * next refresh shows the new click_url_status.
 */
import {renderDetails} from '../api/errors';
import {offersListing, setTracking} from '../api/operations';
import type {Offer, TrackingUpdate} from '../api/types';
import type {Platform} from '../platform/ports';
import {TrackingInput, checkTracking} from '../rules/tracking';
import {decodeRow} from '../sheets/rows';
import {OFFERS} from '../sheets/schemas/offers';
import {
  Built,
  PushOptions,
  PushSpec,
  changedHeaders,
  listByIds,
  runPush,
} from './push';
import type {JobSummary} from './run';
import {rememberServerClicks} from './server-click-memory';

const FIELDS = [
  'tracking_method',
  'click_url',
  'support_server_click',
] as const;

export const TRACKING_PUSH: PushSpec<Offer, TrackingUpdate> = {
  job: 'pushTracking',
  schema: OFFERS,
  refreshTitle: 'Refresh offers and budgets',
  build(record, table, context): Built<TrackingUpdate> {
    const [row] = record.rows;
    const changed = changedHeaders(record, table, context);
    const decoded = decodeRow(table, row, FIELDS, context);
    const values = decoded.values as unknown as TrackingInput;
    const problems = {...checkTracking(values), ...decoded.problems};
    if (Object.keys(problems).length > 0) {
      return {ok: false, refused: new Map([[row, renderDetails(problems)]])};
    }
    const text = (value: unknown) =>
      value === null || value === undefined ? '' : String(value);
    return {
      ok: true,
      request: {
        offer_id: Number(record.id),
        tracking_method: text(values.tracking_method),
        click_url: text(values.click_url),
        support_server_click: text(values.support_server_click),
      },
      sends: `the tracking of offer ${record.id} (${changed.join(', ')} changed)`,
    };
  },
  send: setTracking,
  readBack: (client, ids) =>
    listByIds(ids, chunk => offersListing(client, {offer_id: chunk})).map(
      offer => [offer],
    ),
  againNote: ', which restarts the click-URL test',
  accepted: (book, requests) => rememberServerClicks(book, requests),
};

export function pushTracking(
  platform: Platform,
  options?: PushOptions,
): JobSummary {
  return runPush(platform, TRACKING_PUSH, options);
}
