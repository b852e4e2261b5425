/**
 * A New Offers row's create whose outcome is unknown, as the outbox keeps it (state/outbox.ts):
 * which row resumes which unsettled create (its offer_name's, else the one its account sent
 * into its campaign under the name the row had), the words a row says of it, and the markers
 * the release before wrote in the rows instead, read in once.
 */
import {
  ACCOUNT,
  MAIN_ACCOUNT_CELL,
  accountCell,
  accountOfCell,
} from '../../sheets/accounts';
import {isEmptyCell} from '../../sheets/cell';
import {isBlankRow} from '../../sheets/rows';
import {SYNC_MESSAGE, SYNC_STATUS} from '../../sheets/schema';
import {Table, cellOf} from '../../sheets/table';
import type {OutboxEntry} from '../../state/outbox';
import {RowAccount, typedAccount} from './row-account';

/**
 * How a row's sync_message starts while the answer to its create is unknown (sent, the answer
 * lost or never recorded): words for people. What the add-on goes by is the create's entry in
 * the outbox (state/outbox.ts); only an earlier release's rows are read by this marker, once
 * (earlierCreates).
 */
export const CREATE_SENT = 'Create sent';

/**
 * The marker's start, naming the offer_name the create carried and the account that signed
 * it. (A row whose account is unknown, refused before anything is sent, names none.)
 */
export const createSentAs = (name: string, account: string | undefined) =>
  `${CREATE_SENT} as offer_name ${name}${account === undefined ? '' : ` in account ${accountCell(account)}`}`;

/**
 * The offer_name and account an earlier release's marker names (offer names are letters,
 * digits and underscore, 4.2; an account name ends before a space or a comma: that release
 * wrote "in account demo_sub_b, but ..."). The release before accounts named none.
 */
const SENT_AS = new RegExp(
  `^Create sent as offer_name (\\w+)(?: in account (${MAIN_ACCOUNT_CELL.replace(/[()]/g, '\\$&')}|[^\\s,]+))?`,
);

/** The entry of a create a row of New Offers sent and whose outcome is unknown. */
export type SentCreate = OutboxEntry<'offer create'>;

/**
 * The unsettled create of a row's offer_name: the one its account sent, else one another
 * account sent (the row's account cell changed since: that create is resumed as its own).
 */
export function sentFor(
  sent: readonly SentCreate[],
  name: string,
  typed: RowAccount,
): SentCreate | undefined {
  const named = sent.filter(e => e.record === name);
  return (
    ('account' in typed
      ? named.find(e => e.account === typed.account)
      : undefined) ?? named[0]
  );
}

/**
 * The creates an earlier release marked on New Offers rows (ERROR, INVALID, or EDITED by a
 * preview, with a message starting `Create sent`), as outbox entries: the offer_name and
 * account the marker names, else the row's (`acting` for an empty account cell). A marker
 * whose account cannot be told (acting as every account, an empty cell) gives none.
 */
export function earlierCreates(
  offers: Table<never>,
  acting: string,
): SentCreate[] {
  return offers.values.flatMap((_, index) => {
    if (isBlankRow(offers, index)) return [];
    const message = String(cellOf(offers, index, SYNC_MESSAGE)).trim();
    const marked =
      ['ERROR', 'INVALID', 'EDITED'].includes(
        String(cellOf(offers, index, SYNC_STATUS)),
      ) && message.startsWith(CREATE_SENT);
    if (!marked || !isEmptyCell(cellOf(offers, index, 'offer_id'))) return [];
    const parts = SENT_AS.exec(message);
    const named = accountOfCell(parts?.[2]);
    const typed = typedAccount(
      cellOf(offers, index, ACCOUNT),
      acting,
      'creates the offer',
    );
    const account = named ?? ('account' in typed ? typed.account : undefined);
    if (account === undefined) return [];
    const campaign = Number(cellOf(offers, index, 'campaign_id'));
    return [
      {
        kind: 'offer create' as const,
        job: 'createOffers',
        account,
        record:
          parts?.[1] ?? String(cellOf(offers, index, 'offer_name')).trim(),
        request: {campaign_id: Number.isSafeInteger(campaign) ? campaign : 0},
        time: '',
      },
    ];
  });
}

/**
 * Which unsettled create a row without an offer_id resumes: the one of its offer_name
 * (sentFor); else one whose offer_name no row has any more (the row renamed since its create
 * left), sent as the row's account into the row's campaign: such a row is not sent under its
 * new name until that create is settled. `claimed` collects the creates some row resumes.
 */
export function sentCreates(
  sent: readonly SentCreate[],
  rows: ReadonlyArray<{name: string; account: RowAccount}>,
) {
  const names = new Set(rows.map(r => r.name));
  const renamed = sent.filter(e => !names.has(e.record));
  const claimed = new Set<SentCreate>();
  const of = (
    row: {name: string; account: RowAccount},
    campaign: number,
  ): SentCreate | undefined => {
    const found =
      sentFor(sent, row.name, row.account) ??
      renamed.find(
        e =>
          'account' in row.account &&
          e.account === row.account.account &&
          e.request.campaign_id === campaign,
      );
    if (found) claimed.add(found);
    return found;
  };
  return Object.assign(of, {claimed});
}
