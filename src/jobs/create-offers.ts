/**
 * Create new offers: the chain of API part 1 for every New Offers row without an offer_id.
 *
 * 1. Check every row locally (rules of 4.2, its Creative Sets rows, their materials): an
 *    INVALID row sends nothing at all, not even its materials.
 * 2. Look the names up in the account (offer names are unique): a taken name is INVALID.
 * 3. Upload the materials those rows use that have no md5 yet (step 1 of the chain).
 * 4. Mark the rows `Create sent` in the sheet, send the creates (fetchAll batches), and write
 *    every offer_id the moment the batch answers, before anything else is sent.
 * 5. Set the tracking of the offers whose tracking columns are filled.
 *
 * Never a duplicate offer: a name is looked up before every create; a create whose answer was
 * lost (the connection dropped after the server may have applied it) is looked up by name
 * before anything is sent again, in this run and in the next; a row with an offer_id is never
 * created again, and a re-run only retries what is left of it (its tracking).
 */
import type {ApiClient} from '../api/client';
import {ApiError, ConfigError, OutcomeUnknownError} from '../api/errors';
import {createOffers as sendCreates, setTracking} from '../api/operations';
import type {CreateOfferRequest, Material, Offer} from '../api/types';
import type {Platform, Workbook} from '../platform/ports';
import {takenNameProblem} from '../rules/offer';
import {CREATIVES} from '../sheets/schemas/creatives';
import {CREATIVE_SETS} from '../sheets/schemas/creative-sets';
import {NEW_OFFERS} from '../sheets/schemas/new-offers';
import type {SheetSchema} from '../sheets/schema';
import {openTable, sheetRow} from '../sheets/table';
import {accountLabel, connect} from './connect';
import {
  CREATE_SENT,
  CreatedRow,
  OfferPlan,
  Plan,
  Tracking,
  materialIndex,
  readPlan,
} from './new-offer-rows';
import {offersNamed} from './offer-lookup';
import {RowWrites} from './row-writes';
import {
  JobSummary,
  MAX_PROBLEMS,
  TimeBudget,
  summaryLine,
  withDocumentLock,
} from './run';
import {MaterialVerdict, uploadRows} from './upload-creatives';

const JOB = 'createOffers';
const NOT_SENT = 'Nothing was sent.';
const RERUN = 'run Create new offers again';

/** An offer that exists, with what is still to do for its row. */
interface Made {
  index: number;
  offerId: number;
  tracking?: Tracking;
  /** Created in this run (else: found, or created by an earlier run). */
  createdNow: boolean;
  /** What the create left out of the row, and why (OfferPlan.notes). */
  notes?: string[];
}

class CreateRun {
  private readonly budget: TimeBudget;
  private readonly client: ApiClient;
  private readonly account: string;
  private readonly workbook: Workbook;
  private readonly offers: RowWrites<never>;
  private readonly sets: RowWrites<never>;
  private readonly creatives: RowWrites<Material>;
  private requests = 0;
  private remaining = 0;

  constructor(private readonly platform: Platform) {
    this.budget = new TimeBudget(() => platform.clock.now());
    const connected = connect(platform, this.budget.retryDeadline);
    this.client = connected.client;
    this.account = accountLabel(connected.account);
    this.workbook = platform.workbook();
    const now = () => platform.clock.now();
    const open = <S>(schema: SheetSchema<S>) =>
      new RowWrites(openTable(this.workbook, schema, {create: true})!, now);
    this.offers = open(NEW_OFFERS);
    this.sets = open(CREATIVE_SETS);
    this.creatives = open(CREATIVES);
  }

  run(): JobSummary {
    const plan = readPlan(
      {
        offers: this.offers.table,
        sets: this.sets.table,
        creatives: this.creatives.table,
      },
      this.workbook,
    );
    for (const refused of plan.refused) {
      const writes = refused.table === 'offers' ? this.offers : this.sets;
      writes.status(refused.index, 'INVALID', refused.message);
    }
    for (const candidate of plan.candidates) {
      if (candidate.problems.length > 0) {
        this.offers.status(
          candidate.index,
          'INVALID',
          `${candidate.problems.join('; ')}. ${NOT_SENT}`,
        );
      }
    }
    const total = plan.candidates.length + plan.created.length;
    this.platform.progress.report(JOB, 0, total);
    const valid = this.unused(
      plan.candidates.filter(c => c.problems.length === 0),
    );
    const made: Made[] = [
      ...valid.found,
      ...plan.created
        .filter(c => this.trackable(c))
        .map(c => ({...c, createdNow: false})),
    ];
    const ready = this.withMaterials(valid.free);
    made.push(...this.create(ready));
    this.offers.flush();
    this.track(made);
    this.markSets(plan.candidates);
    this.creatives.flush();
    this.sets.flush();
    this.offers.flush();
    this.platform.progress.report(JOB, total, total);
    return this.summary(plan, total + plan.refused.length);
  }

  /** A created row whose tracking has problems is refused; the others go on. */
  private trackable(row: CreatedRow): boolean {
    if (row.problems.length === 0) return true;
    this.offers.status(
      row.index,
      'INVALID',
      `Offer ${row.offerId} exists, but its tracking cannot be sent: ${row.problems.join('; ')}.`,
    );
    return false;
  }

  /**
   * Rows whose name the account does not use yet, and the offers found for rows whose
   * earlier create was never answered.
   */
  private unused(candidates: OfferPlan[]): {free: OfferPlan[]; found: Made[]} {
    if (candidates.length === 0) return {free: [], found: []};
    let byName: Map<string, Offer[]>;
    try {
      const named = offersNamed(
        this.client,
        candidates.map(c => c.name),
      );
      this.requests += named.requests;
      byName = named.byName;
    } catch (e) {
      // Settings at fault (an unknown sub-account) concern the whole job, not these rows.
      if (e instanceof ConfigError) throw e;
      for (const c of candidates) {
        this.offers.status(
          c.index,
          'ERROR',
          `Could not check that offer_name ${c.name} is not taken (${(e as Error).message}). ${NOT_SENT} Run Create new offers again.`,
        );
      }
      return {free: [], found: []};
    }
    const free: OfferPlan[] = [];
    const found: Made[] = [];
    for (const c of candidates) {
      const same = byName.get(c.name) ?? [];
      const mine = same.find(
        o => Number(o.campaign_id) === c.body!.campaign_id,
      );
      if (same.length === 0) {
        free.push(c);
      } else if (c.sent && mine) {
        found.push(this.adopt(c, mine.offer_id));
      } else {
        this.offers.status(
          c.index,
          'INVALID',
          `${takenNameProblem(same[0].offer_id)}. ${NOT_SENT}`,
        );
      }
    }
    return {free, found};
  }

  /** The offer an unanswered create made: its id goes into the row now. */
  private adopt(c: OfferPlan, offerId: number): Made {
    this.offers.set(c.index, 'offer_id', offerId);
    return {
      index: c.index,
      offerId,
      tracking: c.tracking,
      createdNow: true,
      notes: c.notes,
    };
  }

  /**
   * Uploads the materials these rows use that have no md5 yet, then answers the rows whose
   * materials are all on the server, with their requests.
   */
  private withMaterials(
    candidates: OfferPlan[],
  ): Array<{plan: OfferPlan; request: CreateOfferRequest}> {
    const pending = new Set<number>();
    for (const c of candidates) {
      for (const set of c.sets) {
        for (const {material} of set.materials) {
          if (!material.creative_md5) pending.add(materialIndex(material));
        }
      }
    }
    const upload = uploadRows(
      {
        client: this.client,
        files: this.platform.files,
        writes: this.creatives,
        budget: this.budget,
      },
      [...pending].sort((a, b) => a - b),
    );
    this.requests += upload.requests;
    this.creatives.flush();
    const late = new Set(upload.remaining);
    const ready: Array<{plan: OfferPlan; request: CreateOfferRequest}> = [];
    for (const c of candidates) {
      const problems: string[] = [];
      let status: 'INVALID' | 'ERROR' = 'INVALID';
      let waiting = false;
      const creativeSets = c.sets.map(set => ({
        ...set.draft!,
        creatives: set.materials.map(({item, material}) => {
          const at = materialIndex(material);
          if (late.has(at)) waiting = true;
          const verdict: MaterialVerdict | undefined = upload.verdicts.get(at);
          if (verdict && !verdict.material) {
            if (verdict.status === 'ERROR') status = 'ERROR';
            problems.push(
              `material "${item}" (Creatives row ${material.row}) could not be uploaded: see that row`,
            );
          }
          const on = verdict?.material ?? material;
          return {
            creative_name: on.creative_name,
            creative_md5: on.creative_md5,
          };
        }),
      }));
      if (waiting) {
        this.later(c.index);
      } else if (problems.length > 0) {
        this.offers.status(
          c.index,
          status,
          `${[...new Set(problems)].join('; ')}. ${NOT_SENT}`,
        );
      } else {
        ready.push({
          plan: c,
          request: {...c.body!, creative_sets: creativeSets},
        });
      }
    }
    return ready;
  }

  private later(index: number): void {
    this.remaining++;
    this.offers.status(
      index,
      'EDITED',
      'Not sent yet: the time ran out. Run Create new offers again to continue.',
    );
  }

  /** Sends the creates batch by batch; each batch's offer_ids are written before the next step. */
  private create(
    ready: Array<{plan: OfferPlan; request: CreateOfferRequest}>,
  ): Made[] {
    const made: Made[] = [];
    const size = this.client.batchSize;
    for (let start = 0; start < ready.length; start += size) {
      const chunk = ready.slice(start, start + size);
      if (!this.budget.canStart()) {
        for (const {plan} of ready.slice(start)) this.later(plan.index);
        break;
      }
      const sentAt = new Date(this.platform.clock.now()).toISOString();
      for (const {plan} of chunk) {
        this.offers.status(
          plan.index,
          'ERROR',
          `${CREATE_SENT} at ${sentAt}, but its answer was never recorded: ${RERUN}; it looks the offer up by name before sending anything.`,
        );
      }
      this.offers.flush();
      const outcomes = sendCreates(
        this.client,
        chunk.map(r => r.request),
      );
      this.requests += chunk.length;
      const lost: OfferPlan[] = [];
      chunk.forEach(({plan}, i) => {
        const outcome = outcomes[i];
        if (outcome.ok) {
          this.offers.set(plan.index, 'offer_id', outcome.data.offer_id);
          made.push({
            index: plan.index,
            offerId: Number(outcome.data.offer_id),
            tracking: plan.tracking,
            createdNow: true,
            notes: plan.notes,
          });
        } else if (outcome.error instanceof OutcomeUnknownError) {
          lost.push(plan);
        } else {
          this.offers.status(
            plan.index,
            'ERROR',
            this.refusal(plan, outcome.error),
          );
        }
      });
      made.push(...this.resolveLost(lost));
      this.offers.flush();
    }
    return made;
  }

  private refusal(plan: OfferPlan, error: Error): string {
    if (error instanceof ApiError && /permission denied/i.test(error.msg)) {
      return `billing_type: the ${this.account} lacks the permission to create ${plan.body!.billing_type} offers (the API answered "Permission denied"). Nothing was created.`;
    }
    return `${error.message}. Nothing was created.`;
  }

  /** Creates whose answer was lost: the account is asked whether they happened. */
  private resolveLost(lost: OfferPlan[]): Made[] {
    if (lost.length === 0) return [];
    let byName: Map<string, Offer[]>;
    try {
      const named = offersNamed(
        this.client,
        lost.map(p => p.name),
      );
      this.requests += named.requests;
      byName = named.byName;
    } catch (e) {
      for (const plan of lost) {
        this.offers.status(
          plan.index,
          'ERROR',
          `${CREATE_SENT}, but the connection dropped before the answer, and looking the offer up failed too (${(e as Error).message}): ${RERUN}; it looks the offer up by name before sending anything.`,
        );
      }
      return [];
    }
    const made: Made[] = [];
    for (const plan of lost) {
      const offer = (byName.get(plan.name) ?? []).find(
        o => Number(o.campaign_id) === plan.body!.campaign_id,
      );
      if (offer) {
        made.push(this.adopt(plan, offer.offer_id));
      } else {
        this.offers.status(
          plan.index,
          'ERROR',
          `${CREATE_SENT}, but the connection dropped before the answer and no offer named ${plan.name} is listed: ${RERUN}; it looks the offer up by name first and sends it only if it still does not exist.`,
        );
      }
    }
    return made;
  }

  /** Sets the tracking of the offers that have it filled; every such row gets its status. */
  private track(made: Made[]): void {
    const what = (m: Made) =>
      m.createdNow ? `Offer ${m.offerId} created` : `Offer ${m.offerId} exists`;
    const notes = (m: Made) => (m.notes ?? []).map(n => ` ${n}.`).join('');
    const withTracking = made.filter(m => m.tracking);
    for (const m of made) {
      if (!m.tracking)
        this.offers.status(m.index, 'OK', `${what(m)}.${notes(m)}`);
    }
    const size = this.client.batchSize;
    for (let start = 0; start < withTracking.length; start += size) {
      const chunk = withTracking.slice(start, start + size);
      if (!this.budget.canStart()) {
        for (const m of withTracking.slice(start)) {
          this.remaining++;
          this.offers.status(
            m.index,
            'ERROR',
            `${what(m)}; its tracking is not set yet (the time ran out): ${RERUN} to set it.`,
          );
        }
        break;
      }
      const outcomes = setTracking(
        this.client,
        chunk.map(m => ({offer_id: m.offerId, ...m.tracking!})),
      );
      this.requests += chunk.length;
      chunk.forEach((m, i) => {
        const outcome = outcomes[i];
        if (outcome.ok) {
          this.offers.status(
            m.index,
            'OK',
            `${what(m)}; tracking set.${notes(m)}`,
          );
        } else {
          this.offers.status(
            m.index,
            'ERROR',
            `Offer ${m.offerId} exists (offer_id filled in), but setting its tracking failed: ${outcome.error.message}. Run Create new offers again to retry the tracking only.`,
          );
        }
      });
    }
  }

  /** Each Creative Sets row of a row looked at gets its offer's outcome, or its own problem. */
  private markSets(candidates: OfferPlan[]): void {
    for (const c of candidates) {
      const outcome = this.offers.statusOf(c.index);
      const offerId = this.offers.cell(c.index, 'offer_id');
      for (const set of c.sets) {
        if (set.problems.length > 0) {
          this.sets.status(
            set.index,
            'INVALID',
            `${set.problems.join('; ')}. ${NOT_SENT}`,
          );
        } else if (
          offerId !== '' &&
          offerId !== undefined &&
          outcome?.status !== 'EDITED'
        ) {
          this.sets.status(set.index, 'OK', `Part of offer ${offerId}.`);
        } else if (outcome) {
          this.sets.status(
            set.index,
            outcome.status,
            `Not created: see New Offers row ${sheetRow(c.index)}.`,
          );
        }
      }
    }
  }

  /** Counts New Offers rows, and Creative Sets rows that belong to no offer. */
  private summary(plan: Plan, looked: number): JobSummary {
    const strays = plan.refused.filter(r => r.table === 'sets').length;
    const counts = {
      job: JOB,
      account: this.account,
      ok: this.offers.count('OK'),
      invalid: this.offers.count('INVALID') + strays,
      error: this.offers.count('ERROR'),
      skipped: plan.done,
      remaining: this.remaining,
      dryRun: false,
      problems: [
        ...this.offers.problems(),
        ...this.sets.problems(),
        ...this.creatives.problems(),
      ].slice(0, MAX_PROBLEMS),
      requests: this.requests,
    };
    const message =
      looked === 0
        ? `Nothing to create (${this.account}): write offers in New Offers (one row each, offer_id empty) and their creative sets in Creative Sets.`
        : summaryLine(counts, NEW_OFFERS.name);
    return {...counts, message};
  }
}

export function createOffers(platform: Platform): JobSummary {
  return withDocumentLock(platform, () => new CreateRun(platform).run());
}
