/**
 * The refresher of Offers and Budgets: one offers listing fills both, the alerts decided
 * between them (offer-watch.ts) on what the server answered.
 */
import {MAX_LIMIT, offersListing} from '../../api/operations';
import type {Offer} from '../../api/types';
import {textOf} from '../../rules/values';
import {BUDGETS} from '../../sheets/schemas/budgets';
import {OFFERS} from '../../sheets/schemas/offers';
import {CellPool} from '../../sheets/cell-pool';
import {EncodedRecord, encodeRecord} from '../../sheets/server-records';
import {recordKey} from '../../sheets/accounts';
import {
  ServerClickMemo,
  sentServerClicks,
  withServerClick,
} from '../../state/server-click-memory';
import {noun} from '../../text/wording';
import {COMPARED, WatchInput, watchedFacts} from './alerts';
import {
  ListedFields,
  OffersCells,
  budgetCells,
  budgetRecords,
  offerFacts,
  unfaithful,
} from './offer-budgets';
import type {
  AccountListed,
  Pulled,
  RefreshContext,
  Refresher,
} from './refresher';
import {refreshSheet} from './refresh-sheet';
import {listedCounts, once} from './sheet-refresher';

/**
 * What a refresh keeps of a listed offer: its Offers record encoded, which Budgets is made from
 * after Offers is written (offer-budgets.ts), with what Budgets reads that its cells would not
 * give back; what the alerts compare.
 */
export interface KeptOffer {
  offers: EncodedRecord;
  asListed: ListedFields | undefined;
  watched: WatchInput['current'][number];
}

/**
 * An offer as the refresh keeps it from the moment its page is parsed (issue 37): the Offers
 * record as its cells, with only what a later run reads of the last pull as facts (the state
 * is no copy), and the alerts' facts; every short text held once by `pool`. `sent`: the
 * support_server_click values the add-on last sent, which the list never returns.
 */
export function keptOffer(
  offer: Offer,
  account: string,
  sent: ServerClickMemo,
  pool: CellPool,
): KeptOffer {
  return {
    offers: encodeRecord(
      OFFERS,
      {
        account,
        sources: [withServerClick(offer, sent)],
        facts: pool.facts({
          ...offerFacts(offer),
          ...watchedFacts(offer, COMPARED),
          bid_rate: textOf(offer.bid_rate),
        }),
      },
      pool,
    ),
    asListed: unfaithful(offer),
    watched: {
      id: recordKey(account, String(offer.offer_id)),
      facts: pool.facts(watchedFacts(offer)),
    },
  };
}

/**
 * One offers listing fills both Offers and Budgets. The listing keeps each offer as its sheets
 * and the alerts need it (keptOffer), so no parsed offer outlives its batch of pages.
 */
export const offersRefresher: Refresher<Offer, KeptOffer> = {
  what: noun('offer'),
  cost: {sheets: [OFFERS.name, BUDGETS.name], pageSize: MAX_LIMIT.offers},
  listing: ({client, account, state}) => {
    const sent = sentServerClicks(state);
    const pool = new CellPool();
    return {
      ...offersListing(client),
      keep: offer => keptOffer(offer, account, sent, pool),
    };
  },
  pulled: listed => offersPulled(listed),
};

/**
 * What each sheet and the alerts take of the offers kept, each handed over once. Made apart
 * from the write, whose closure must not hold the listing's items.
 */
function taken(listed: ReadonlyArray<AccountListed<KeptOffer>>) {
  const each = <P>(part: (kept: KeptOffer) => P) =>
    once(listed.flatMap(({items}) => items.map(part)));
  return {
    watched: each(kept => kept.watched),
    offers: each(kept => kept.offers),
    budgets: budgetsOf(listed),
  };
}

/**
 * What Budgets takes of the offers listed: their Offers rows, the very arrays the Offers merge
 * makes its rows of, until the Offers refresh needs no more of them than its write holds
 * (`released`); then only the cells Budgets reads (budgetCells), so an offer's whole row goes
 * with the Offers write (issue 37: a refresh held every Offers row through Offers' state save
 * and write for six of its cells). A row the write holds whole (a new one) is left whole
 * until it is written: a copy would only add to it. The merge changes a row only where
 * Budgets does not read: it fills an editable cell the list left out and writes the sheet's
 * own cells after the schema's, and none of BUDGETS_READS is an editable Offers column (a
 * test holds that).
 */
function budgetsOf(listed: ReadonlyArray<AccountListed<KeptOffer>>) {
  let cells: OffersCells[] | undefined = listed.map(({account, items}) =>
    offersCells(account, items),
  );
  const narrowed = new WeakSet<readonly unknown[]>();
  const released = (held: (row: readonly unknown[]) => boolean) => {
    cells = cells?.map(c => ({
      ...c,
      rows: c.rows.map(row => {
        if (narrowed.has(row) || held(row)) return row;
        const narrow = budgetCells(row);
        narrowed.add(narrow);
        return narrow;
      }),
    }));
  };
  return {
    released,
    /** Handed over once, every row narrowed. */
    take: (): OffersCells[] => {
      released(() => false);
      if (!cells) throw new Error('already taken');
      const handed = cells;
      cells = undefined;
      return handed;
    },
  };
}

/** The offers one account listed, their whole Offers rows (budgetsOf narrows them). */
function offersCells(
  account: string,
  items: ReadonlyArray<KeptOffer>,
): OffersCells {
  const asListed = new Map<number, ListedFields>();
  items.forEach((kept, k) => {
    if (kept.asListed) asListed.set(k, kept.asListed);
  });
  return {account, rows: items.map(kept => kept.offers.rows[0]), asListed};
}

/** Offers, then Budgets, written from the offers kept, the alerts decided before either. */
function offersPulled(listed: ReadonlyArray<AccountListed<KeptOffer>>): Pulled {
  const {watched, offers, budgets} = taken(listed);
  return {
    ...listedCounts(listed),
    write: context => {
      decideAlerts(context, watched);
      const offersReport = refreshSheet(context, OFFERS, offers, {
        released: budgets.released,
      });
      context.watch?.commit(context.state);
      const budgetsReport = refreshSheet(context, BUDGETS, () =>
        budgetRecords(budgets.take()),
      );
      context.watch?.write(context);
      return [offersReport, budgetsReport];
    },
  };
}

/**
 * The alerts are decided on what the server answered, before any sheet is written, and
 * recorded with the Offers state they compare against: a run failing after it (at Budgets,
 * say) leaves them to the next refresh, which would not find them again. What they compare is
 * taken here, so the sheets' writes do not hold it.
 */
function decideAlerts(
  context: RefreshContext,
  watched: () => WatchInput['current'],
): void {
  context.watch?.check(context, context.state.get(OFFERS.name), watched());
}
