/**
 * What the phases of one createOffers run share: the job (budget, clients, account, state book,
 * History, save), the writers of its three sheets, and the counts its summary needs beyond
 * the rows' statuses. Each phase is a function of this context, so the job itself
 * (create-offers.ts) reads as the order of its phases.
 */
import type {ApiClient} from '../../api/client';
import type {Material} from '../../api/types';
import type {Job} from '../kernel';
import type {RowWrites} from '../row-writes';

export interface CreateRun {
  readonly job: Job;
  /** The client that signs as a row's account ('' the main account): Connected.clientFor. */
  readonly clientFor: (account: string) => ApiClient;
  /** Requests per fetchAll batch. */
  readonly batchSize: number;
  readonly offers: RowWrites<never>;
  readonly sets: RowWrites<never>;
  readonly creatives: RowWrites<Material>;
  readonly counts: {
    /** Requests sent. */
    requests: number;
    /** Rows the time left unsent. */
    remaining: number;
    /** Rows the API refused before, unchanged: not sent again. */
    refusedAgain: number;
  };
}
