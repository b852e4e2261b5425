/**
 * pushTracking (API 4.4): Offers rows whose tracking_method, click_url or
 * support_server_click differ from what was last pulled are sent with PUT tracking, all four
 * fields of 2.8 together. The link test starts again: the next refresh shows the new
 * click_url_status. A field the row did not change goes as last refreshed: the row says so,
 * and the offer is read first, so a tracking_method or click_url changed on the server since
 * is not put back (CONFLICT, push-delivery.ts current).
 *
 * support_server_click is not returned by the offers list: the add-on knows an offer's value
 * only when it sent it (state/server-click-memory.ts; the Offers refresh shows it). Where it does not
 * know (the cell was empty when pulled), the user decides once: a value filled into the column
 * (a fill-down), or the sidebar's default. A filled value alone is such a decision, not an edit:
 * it is kept for the offer's next tracking change and sends nothing (a PUT tracking restarts
 * the click-URL test). With neither, a tracking change is INVALID naming support_server_click.
 */
import type {RunOptions} from '../kernel';
import {renderDetails} from '../../api/errors';
import {readOffersBack, setTracking} from '../../api/operations';
import type {Offer, TrackingUpdate} from '../../api/types';
import type {Platform} from '../../platform/ports';
import {excerpt} from '../../rules/values';
import {
  TRACKING_FIELDS,
  TrackingInput,
  checkTracking,
} from '../../rules/tracking';
import {EMPTY} from '../../sheets/rows';
import {editableOf} from '../../sheets/schema';
import {OFFERS} from '../../sheets/schemas/offers';
import type {
  ChangedRecord,
  PushSpec,
  RecordDecision,
  RecordRules,
} from './push-spec';
import {runPush} from './push';
import type {JobSummary} from '../run';
import {ServerClickDefault, SettingsStore} from '../settings-store';

const SERVER_CLICK = 'support_server_click';

/** Where support_server_click sits among the editable texts of an Offers row. */
const SERVER_CLICK_AT = editableOf(OFFERS).findIndex(
  c => c.header === SERVER_CLICK,
);

/** How to decide once where support_server_click is not known, for messages. */
const DECIDE_ONCE =
  'fill the support_server_click column down with YES or NO, or set "support_server_click when not known" in the sidebar settings';

/** The tracking rules (rules/tracking.ts) on an offer's one row. */
const TRACKING_RULES: RecordRules = {
  check: ([row]) => ({
    rows: [checkTracking(row as unknown as TrackingInput)],
    whole: {},
  }),
  setOnce: {
    header: 'tracking_method',
    words: (label, changeId) =>
      `change ${changeId} set the first tracking of ${label} (its tracking_method was empty before), and the API cannot remove a tracking link. To change it, type another tracking_method and click_url and push them.`,
  },
};

/** The tracking push; `fallback` is the sidebar's support_server_click default ('' asks). */
export function trackingPush(
  fallback: ServerClickDefault,
): PushSpec<Offer, TrackingUpdate> {
  return {
    job: 'pushTracking',
    schema: OFFERS,
    refreshTitle: 'Refresh offers and budgets',
    build: record => buildTracking(fallback, record),
    rules: TRACKING_RULES,
    send: setTracking,
    // A PUT tracking carries all of 2.8: a field the row did not change goes as last
    // refreshed, and a tracking_method or click_url changed on the server since would be put
    // back. support_server_click is not listed (TOOLING): reading cannot tell it.
    resendsPulled: record =>
      editableOf(OFFERS).some(
        (column, k) =>
          column.header !== SERVER_CLICK &&
          record.content[0]?.[k] === record.base.rows[0]?.[k],
      ),
    readBack: readOffersBack,
    againNote: ', which restarts the click-URL test',
  };
}

/** The spec of pushTracking as this user set it up: its support_server_click default. */
export function trackingPushOf(
  platform: Platform,
): PushSpec<Offer, TrackingUpdate> {
  const fallback = new SettingsStore(
    platform.userProperties,
  ).serverClickDefault();
  return trackingPush(fallback);
}

/**
 * One changed Offers row as a PUT tracking, or why it is not sent. support_server_click must
 * be sent with the rest, so where the server's value is not known it is decided here once.
 */
function buildTracking(
  fallback: ServerClickDefault,
  record: ChangedRecord,
): RecordDecision<TrackingUpdate> {
  const [row] = record.rows;
  const [cells] = record.decoded;
  const changed = record.edited;
  const values = {...cells.values};
  const known = (record.base.rows[0]?.[SERVER_CLICK_AT] ?? EMPTY) !== EMPTY;
  const typed = values.support_server_click;
  const decided = typed === 'YES' || typed === 'NO';
  if (!known && decided && changed.every(h => h === SERVER_CLICK)) {
    return {
      ok: false,
      kept: new Map([
        [
          row,
          `support_server_click ${String(typed)} is kept for this offer's next tracking_method or click_url change and not sent alone: the server's value is not known to the add-on, and a tracking push restarts the click-URL test.`,
        ],
      ]),
    };
  }
  const defaulted = !known && typed === null && fallback !== '';
  if (defaulted) values.support_server_click = fallback;
  const problems = {
    ...TRACKING_RULES.check([values], record).rows[0],
    ...cells.problems,
  };
  if (!known && values.support_server_click === null) {
    problems.support_server_click = `the server's value is not known to the add-on (the offers list does not return it, and no push from here sent it), so a tracking push cannot keep it: ${DECIDE_ONCE}.`;
  }
  if (Object.keys(problems).length > 0) {
    return {ok: false, refused: new Map([[row, renderDetails(problems)]])};
  }
  return trackingRequest(record, values, changed, defaulted ? fallback : '');
}

/** The PUT tracking of checked values: all four fields of 2.8, as the API takes them (text). */
function trackingRequest(
  record: ChangedRecord,
  values: Readonly<Record<string, unknown>>,
  changed: readonly string[],
  /** The sidebar's default when it stood in for an unknown support_server_click, else ''. */
  defaulted: ServerClickDefault,
): RecordDecision<TrackingUpdate> {
  const text = (value: unknown) =>
    value === null || value === undefined ? '' : String(value);
  const request: TrackingUpdate = {
    offer_id: Number(record.id),
    tracking_method: text(values.tracking_method),
    click_url: text(values.click_url),
    support_server_click: text(values.support_server_click),
  };
  // The row says what else goes out: a PUT tracking sets all of it.
  const kept = (
    TRACKING_FIELDS as ReadonlyArray<Exclude<keyof TrackingUpdate, 'offer_id'>>
  )
    .filter(f => !changed.includes(f) && !(f === SERVER_CLICK && defaulted))
    .map(f => `${f} ${excerpt(request[f] || '(empty)', false)}`);
  const alongside =
    kept.length > 0 ? `; also sent, as last refreshed: ${kept.join(', ')}` : '';
  const note = defaulted
    ? `; support_server_click ${defaulted} is the sidebar's default: the server's value is not known to the add-on`
    : '';
  return {
    ok: true,
    request,
    sends: `the tracking of offer ${record.id} (${changed.join(', ')} changed${alongside}${note})`,
  };
}

export function pushTracking(
  platform: Platform,
  options?: RunOptions,
): JobSummary {
  return runPush(platform, trackingPushOf(platform), options);
}
