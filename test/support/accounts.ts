/**
 * An agency's world (the emulator's `subAccounts`) and who signed what: every request of the
 * emulator's log named by the account whose access key signed it, so tests can say "each list
 * signed by its account" exactly.
 */
import type {Emulator, RecordedRequest} from '../../local/emulator';

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
