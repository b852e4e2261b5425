/**
 * An agency's world (the emulator's `subAccounts`) and who signed what: every request of the
 * emulator's log named by the account whose access key signed it, so tests can say "each list
 * signed by its account" exactly.
 */
import {
  DEMO_ACCOUNTS,
  type Emulator,
  type RecordedRequest,
} from '../../local/emulator';
import type {Runtime} from '../../local/runtime';
import {offerDesk, recordsOf, typeInto} from './offer-desk';

/** Sub-accounts an agency test seeds besides demo_sub_a and demo_sub_b: the "12 or more". */
export const AGENCY_SUB_ACCOUNTS = 12;

/** The main account's sub-accounts in the emulator, in the order it created them. */
export function subAccountNames(emulator: Emulator): string[] {
  return emulator
    .state()
    .accounts.filter(a => a.kind === 'sub_adv_account')
    .map(a => a.name);
}

/** A request as a test reads it: what it asked, and who signed it. */
export interface Signed {
  /** `GET offers`, `GET sub_adv_account`, ... */
  op: string;
  /** The account whose access key signed it; '?' for a key no account has, null for none. */
  signer: string | null;
  query: RecordedRequest['query'];
}

/** Every request logged after `since` (a seq), named by its signer. */
export function signedRequests(emulator: Emulator, since = 0): Signed[] {
  const byKey = new Map(
    emulator.state().accounts.map(a => [a.access_key, a.name]),
  );
  return emulator.requests
    .filter(r => r.seq > since)
    .map(r => ({
      op: `${r.method} ${r.path.replace('/api/open/v3/', '')}`,
      signer: r.accessKey === null ? null : (byKey.get(r.accessKey) ?? '?'),
      query: r.query,
    }));
}

/** The account's first offer, made one the user may edit (editable). */
export function editableOffer(emulator: Emulator, name: string): number {
  const [id] = emulator.account(name).offers.keys();
  editable(emulator, id);
  return id;
}

/** Makes an offer one the user may edit: maintained by ADV, one ALL budget group of 100. */
export function editable(emulator: Emulator, id: number): void {
  emulator.updateOffer(id, {
    maintain_by: 'ADV',
    target_geo: 'US',
    budget: [
      {
        target_geo: 'ALL',
        total_budget: '1000',
        daily_cap_type: 'BUDGET',
        daily_cap: '100',
      },
    ],
  });
}

/**
 * Three accounts in two currencies (issue 33): demo_adv and demo_sub_a bill in USD, demo_sub_b
 * in CNY. Each has an offer the user may edit (`ids`, by account name), every offer RUNNING,
 * and every account's rows pulled acting as every account.
 */
export function threeAccounts() {
  const desk = offerDesk({offers: 20, listsSubAccounts: true});
  const names = [
    DEMO_ACCOUNTS.main.name,
    DEMO_ACCOUNTS.subA.name,
    DEMO_ACCOUNTS.subB.name,
  ];
  const ids = Object.fromEntries(
    names.map(name => [name, editableOffer(desk.emulator, name)]),
  );
  for (const name of names)
    for (const id of desk.emulator.account(name).offers.keys())
      desk.emulator.updateOffer(id, {status: 'RUNNING', offer_stop_reason: ''});
  desk.rt.call('setActingAccount', '*');
  desk.rt.call('refreshOffers');
  return {...desk, ids};
}

/** Types `cap` into the daily_cap of the offer's (first) Budgets row. */
export function editCap(rt: Runtime, id: number, cap: string): void {
  const row = recordsOf(rt, 'Budgets').findIndex(r => r.offer_id === id) + 2;
  typeInto(rt, 'Budgets', row, 'daily_cap', cap);
}
