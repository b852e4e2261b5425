/**
 * Whose turn it is when a refresh of every account does not fit its run (refresh-cost.ts
 * refreshPlan): the accounts refreshed longest ago first, so runs that are all trimmed (a large
 * agency, changes due every hour) still refresh every account in turn, never the same ones
 * each time. The queue is kept in the state book (state/refresh-turns-memo.ts), one per kind of
 * refresh, since a refresh of campaigns leaves the offers as they were.
 */
import {EVERY_ACCOUNT} from '../settings-store';

/** Of a refresher (refresher.ts): whether it lists the main account alone, and its sheets. */
interface Lists {
  mainOnly?: boolean;
  cost: {sheets: readonly string[]};
}

/**
 * Whether a refresh as `acting` takes its accounts in turn: acting as every account, with lists
 * of each account's own (one of the main account's sub-accounts alone lists nothing of theirs:
 * the main account is then its one turn).
 */
export function takesTurns(
  acting: string,
  refreshers: readonly Lists[],
): boolean {
  return acting === EVERY_ACCOUNT && refreshers.some(r => !r.mainOnly);
}

/** The refresh a queue belongs to, named by the sheets its refreshers list first. */
export function turnsKey(refreshers: readonly Lists[]): string {
  return refreshers.map(r => r.cost.sheets[0]).join(', ');
}

/**
 * `accounts` in the order a refresh takes them: those the queue does not hold first (never
 * refreshed by it: in the order given, the main account first), then the queue's, refreshed
 * longest ago first.
 */
export function inTurn(
  accounts: readonly string[],
  queue: readonly string[],
): string[] {
  const queued = new Set(queue);
  const wanted = new Set(accounts);
  return [
    ...accounts.filter(a => !queued.has(a)),
    ...queue.filter(a => wanted.has(a)),
  ];
}

/**
 * The queue after a refresh took `order` (inTurn) and wrote `written`: the accounts it did not
 * write (trimmed, or failed) keep their places ahead of those it wrote. Where it wrote every
 * account, the queue is `order` as it was.
 */
export function afterRefresh(
  order: readonly string[],
  written: readonly string[],
): string[] {
  const done = new Set(written);
  return [
    ...order.filter(a => !done.has(a)),
    ...new Set([...order, ...written].filter(a => done.has(a))),
  ];
}
