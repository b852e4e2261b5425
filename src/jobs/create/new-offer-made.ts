/**
 * A New Offers row with an offer_id, as createOffers plans it: done, resumed at its tracking
 * (the offer was made from this row), or refused (an offer_id it did not make from this row).
 */
import {excerpt} from '../../rules/values';
import type {CodecContext} from '../../sheets/codec';
import {SYNC_MESSAGE, SYNC_STATUS} from '../../sheets/schema';
import {Table, cellOf} from '../../sheets/table';
import {
  CreatedOffers,
  MadeFrom,
  trackingContent,
} from '../../state/created-offers';
import type {RowAccount} from './row-account';
import {textCell} from './new-offer-cells';
import type {Plan, Tracking} from './new-offer-plan';

/**
 * Whether a row with an offer_id was created by the add-on when no record of the offers it
 * made is kept (`made` undefined: an earlier version, or the state sheet deleted): only a row
 * it wrote says so, OK with its message ("Offer ID created", "Offer ID exists"), or ERROR with
 * the message of a tracking not set ("Offer ID exists (offer_id filled in), but ..."), which
 * then resumes at its tracking. A row copied from Offers lacks that message; a row without
 * both sends nothing until the user decides (see planMade).
 */
function madeBefore(
  made: CreatedOffers | undefined,
  offers: Table<never>,
  index: number,
  offerId: number,
): boolean {
  const message = String(cellOf(offers, index, SYNC_MESSAGE));
  const status = cellOf(offers, index, SYNC_STATUS);
  return (
    made === undefined &&
    ((status === 'OK' && message.startsWith(`Offer ${offerId} `)) ||
      (status === 'ERROR' &&
        message.startsWith(`Offer ${offerId} exists (offer_id filled in), `)))
  );
}

/**
 * Why a row may not resume the offer its offer_id names, or undefined when it may: the offer
 * was made from this row (same offer_name and campaign_id), and no row above claimed it.
 */
function foreignOffer(
  made: CreatedOffers | undefined,
  claimed: ReadonlySet<number>,
  offerId: number,
  from: MadeFrom,
): string | undefined {
  const entry = made?.[String(offerId)];
  const fix = `clear offer_id to create a new offer from this row, or edit offer ${offerId} in the Offers sheet. Nothing was sent.`;
  if (!entry) {
    return `offer_id ${offerId}: this sheet has no record of creating offer ${offerId} from this row (a row copied from Offers, say), so nothing is sent for it: ${fix}`;
  }
  if (
    entry.offer_name !== from.offer_name ||
    entry.campaign_id !== from.campaign_id
  ) {
    return `offer_id ${offerId}: offer ${offerId} was created from the row of offer_name ${entry.offer_name} in campaign ${entry.campaign_id}, not from this one (a copied row?): ${fix}`;
  }
  if (claimed.has(offerId)) {
    return `offer_id ${offerId} is also on a row above, which offer ${offerId} was created from (a copied row?): ${fix}`;
  }
  return undefined;
}

/**
 * A row with an offer_id: done, resumed (its tracking), or refused. `claimed`: the offers rows
 * above have resumed or finished.
 */
export function planMade(
  plan: Plan,
  row: {
    offers: Table<never>;
    index: number;
    values: Record<string, unknown>;
    account: RowAccount;
    made: CreatedOffers | undefined;
    claimed: Set<number>;
    /** A tracking of its offer is out, its outcome unknown. */
    trackingOut: boolean;
  },
  tracking: {tracking?: Tracking; problems: string[]},
  context: CodecContext,
): void {
  const {offers, index, values, made, claimed} = row;
  const resume = (offerId: number, what = tracking) => {
    if ('account' in row.account) {
      plan.created.push({
        index,
        offerId,
        account: row.account.account,
        ...what,
      });
    } else {
      plan.refused.push({
        table: 'offers',
        index,
        message: `Offer ${offerId} exists, but its tracking cannot be sent: ${row.account.problem}. Nothing was sent.`,
      });
    }
  };
  const offerId = values.offer_id;
  if (typeof offerId !== 'number' || !Number.isSafeInteger(offerId)) {
    plan.refused.push({
      table: 'offers',
      index,
      message: `offer_id ${excerpt(textCell(offers, index, 'offer_id'))} is not an offer id: clear it to create the offer, or write back the id of the offer Offer Desk created from this row.`,
    });
    return;
  }
  const from = {
    offer_name: textCell(offers, index, 'offer_name'),
    campaign_id: Number(values.campaign_id),
  };
  if (!claimed.has(offerId) && madeBefore(made, offers, index, offerId)) {
    plan.legacy.push({
      offer_id: offerId,
      ...from,
      ...('account' in row.account ? {account: row.account.account} : {}),
    });
    claimed.add(offerId);
    if (cellOf(offers, index, SYNC_STATUS) === 'OK') plan.done++;
    else resume(offerId);
    return;
  }
  const foreign = foreignOffer(made, claimed, offerId, from);
  if (foreign) {
    plan.refused.push({table: 'offers', index, message: foreign});
    return;
  }
  claimed.add(offerId);
  const entry = made?.[String(offerId)];
  const content =
    tracking.tracking &&
    JSON.stringify(trackingContent(tracking.tracking, context));
  // A tracking the API refused is not sent again unchanged: its row already says why.
  if (
    cellOf(offers, index, SYNC_STATUS) === 'OK' ||
    (content !== undefined && content === JSON.stringify(entry?.refused))
  ) {
    plan.done++;
  } else if (
    content !== undefined &&
    content === JSON.stringify(entry?.rows) &&
    !row.trackingOut
  ) {
    // What the offer is known to hold already (no other tracking of it in flight): sending
    // it would only restart its click-URL test.
    resume(offerId, {problems: tracking.problems});
  } else {
    resume(offerId);
  }
}
