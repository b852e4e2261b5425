/** What a refresh's summary says: what was listed and written, per sheet and per account. */
import type {MergeCounts} from '../../sheets/merge';
import {counted} from '../../text/wording';
import {accountLabel} from '../connect';
import type {JobFacts} from '../kernel';
import {AccountLine, MAX_PROBLEMS, RowProblem} from '../run';
import type {Pulled, Refresher, SheetReport} from './refresher';
import {serverChangesSaid} from './server-changes';

/** How many records one of an account's lists answered. */
export interface AccountCount {
  account: string;
  records: number;
}

/** One line per account acted for: the records it listed, or why it was left out. */
export function accountLines(
  accounts: readonly string[],
  listed: readonly AccountCount[],
  failed: ReadonlyMap<string, string>,
): AccountLine[] {
  return accounts.map(account => {
    const error = failed.get(account);
    return {
      account: accountLabel(account),
      records: error
        ? 0
        : listed
            .filter(l => l.account === account)
            .reduce((n, l) => n + l.records, 0),
      ...(error !== undefined ? {error} : {}),
    };
  });
}

/** Who a refresh as every account acted for, as its summary says it. */
export function everyAccount(subAccounts: number): string {
  return subAccounts === 0
    ? 'every account: the main account only, no sub-account was listed or named in Sub-accounts'
    : `every account: the main account and ${counted(subAccounts, 'sub-account')}`;
}

export function refreshFacts(
  refreshers: readonly Refresher[],
  pulled: readonly Pulled[],
  reports: SheetReport[],
  account: string,
  failed: ReadonlyMap<string, string>,
): JobFacts {
  const sum = (pick: (c: MergeCounts) => number) =>
    reports.reduce((n, r) => n + pick(r.counts), 0);
  const edited = sum(c => c.edited);
  const conflict = sum(c => c.conflict);
  const invalid = sum(c => c.invalid);
  const problems: RowProblem[] = reports
    .flatMap(r => r.notes.map(n => ({sheet: r.sheet, ...n})))
    .slice(0, MAX_PROBLEMS);
  const listed = refreshers
    .map((r, i) => counted(pulled[i].records, r.what))
    .join(', ');
  const changes = reports
    .filter(r => r.counts.added + r.counts.removed > 0)
    .map(r => `${r.sheet}: ${r.counts.added} new, ${r.counts.removed} removed`);
  const kept = [
    edited > 0 ? `${edited} kept with unpushed edits` : '',
    conflict > 0
      ? `${conflict} in CONFLICT (changed here and on the server)`
      : '',
    invalid > 0 ? `${counted(invalid, 'row')} INVALID` : '',
  ].filter(Boolean);
  const details = [...changes, ...kept].join('; ');
  const failures = [...failed].map(
    ([name, why]) => `${accountLabel(name)} (${why})`,
  );
  const seen = serverChangesSaid(
    reports.reduce((n, r) => n + (r.seen?.changes ?? 0), 0),
    reports.reduce((n, r) => n + (r.seen?.unreadable ?? 0), 0),
    reports.filter(r => r.seen?.unread).map(r => r.sheet),
  );
  return {
    sheet: reports[0]?.sheet ?? '',
    ok: pulled.reduce((n, p) => n + p.records, 0),
    invalid,
    error: failed.size,
    skipped: edited + conflict,
    message: `Refreshed ${listed} (${account})${details ? `: ${details}` : ''}.${seen}${failures.length > 0 ? ` Not refreshed, rows left as they were: ${failures.join('; ')}.` : ''}`,
    problems,
    requests: pulled.reduce((n, p) => n + p.requests, 0),
    edited,
    conflict,
  };
}
