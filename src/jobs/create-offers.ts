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
 * Never a duplicate offer: a name is looked up before every create; a create whose answer
 * proves nothing (lost, garbled, a 5xx, a busy service: see provesCreateFailed in the API
 * client) is looked up by name before anything is sent again, in this run and in the next; a
 * row with an offer_id is never created again, and a re-run only retries what is left of it
 * (its tracking), and only for an offer the add-on made from that very row (created-offers.ts).
 *
 * Never a marker lost: the `Create sent` markers, the offer_ids and the memory of the offers
 * made reach the spreadsheet (SpreadsheetApp.flush) before the next request goes out, since
 * Apps Script drops the queued writes of an execution it kills. And no batch starts that the
 * slowest batch of this run says would end past the retry budget.
 *
 * A preview ({dryRun: true}) checks every row with the same rules and says per row what a run
 * would do, sending nothing and recording nothing: no marker, no offer_id, no memo. It does not
 * look the names up either (a GET would only say early what the run says anyway: a taken name
 * is refused before anything is sent), so each row says the run looks its name up first. A row
 * whose earlier create is unsettled keeps its marker at the start of its preview message, so
 * the run after the preview still adopts its offer (new-offer-rows.ts readPlan).
 */
import type {ApiClient} from '../api/client';
import {hasVerdict} from '../api/retry';
import {excerpt} from '../rules/values';
import {ApiError, ConfigError, OutcomeUnknownError} from '../api/errors';
import {createOffers as sendCreates, setTracking} from '../api/operations';
import type {CreateOfferRequest, Material, Offer} from '../api/types';
import type {Platform, Workbook} from '../platform/ports';
import {takenNameProblem} from '../rules/offer';
import {CREATIVES} from '../sheets/schemas/creatives';
import {CREATIVE_SETS} from '../sheets/schemas/creative-sets';
import {NEW_OFFERS} from '../sheets/schemas/new-offers';
import type {SheetSchema} from '../sheets/schema';
import type {HistoryOutcome} from '../sheets/history';
import {StateBook} from '../sheets/state';
import {cellOf, openTable, sheetRow} from '../sheets/table';
import {SYNC_STATUS} from '../sheets/schema';
import {counted} from '../text/wording';
import {ChangeLog} from './change-log';
import {accountLabel, connect} from './connect';
import {
  createdOffers,
  refusedCreates,
  rememberCreateVerdict,
  rememberCreated,
  rememberTrackingVerdict,
  trackingKey,
} from './created-offers';
import {
  createSentAs,
  CreatedRow,
  OfferPlan,
  Plan,
  Tracking,
  materialIndex,
  readPlan,
} from './new-offer-rows';
import {offersNamed} from './offer-lookup';
import {previewSummary} from './preview';
import type {PushOptions} from './push-spec';
import {RowWrites} from './row-writes';
import {
  JobSummary,
  MAX_PROBLEMS,
  TimeBudget,
  summaryLine,
  withDocumentLock,
} from './run';
import {rememberServerClicks} from './server-click-memory';
import {MaterialVerdict, uploadChanges, uploadRows} from './upload-creatives';

const JOB = 'createOffers';
const NOT_SENT = 'Nothing was sent.';
const RERUN = 'run Create new offers again';
const RESEND_REFUSED =
  'Change the row, or clear its sync_status, to send it again: unchanged, it is not sent again.';

/** The status of a row whose offer exists and whose tracking is still to set. */
const trackingLeft = (offer: string, why = '') =>
  `${offer}; its tracking is not set yet${why}: ${RERUN} to set it.`;

/**
 * The status of a row whose create an earlier run sent and whose outcome this run could not
 * settle: it starts with the Create sent marker (naming the offer_name the create carried), so
 * the next run still adopts the offer if it exists.
 */
const unsettled = (c: OfferPlan, why: string) =>
  `${createSentAs(c.sentAs ?? c.name)} by an earlier run, and its outcome is still unknown: ${why}; ${RERUN}; it looks the offer up by name before sending anything.`;

/** How a row's status names its offer, by how the offer came to be. */
const WHAT: Record<Origin, (offerId: number) => string> = {
  created: id => `Offer ${id} created`,
  found: id =>
    `Offer ${id} created (the answer to its create was lost; found by name)`,
  exists: id => `Offer ${id} exists`,
};

/**
 * How the row's offer came to be: created in this run, created in this run or an earlier
 * one but its answer lost and the offer found by name, or created by an earlier run.
 */
type Origin = 'created' | 'found' | 'exists';

/** An offer that exists, with what is still to do for its row. */
interface Made {
  index: number;
  offerId: number;
  tracking?: Tracking;
  origin: Origin;
  /** What the create left out of the row, and why (OfferPlan.notes). */
  notes: string[];
}

/** The notes of a row's create, to end its OK (or preview) message. */
function notes(m: {notes: readonly string[]}): string {
  return m.notes.map(n => ` ${n}.`).join('');
}

/**
 * The offer of the row's name that its create made: in the row's campaign. An offer listed
 * without a campaign_id is taken on its name alone (offer names are unique in an account).
 */
function madeBy(named: readonly Offer[], plan: OfferPlan): Offer | undefined {
  return named.find(
    o =>
      o.campaign_id === undefined ||
      o.campaign_id === null ||
      Number(o.campaign_id) === plan.body!.campaign_id,
  );
}

class CreateRun {
  private readonly budget: TimeBudget;
  private readonly client: ApiClient;
  private readonly account: string;
  /** The account acting ('' for the main account); `account` is how messages name it. */
  private readonly acting: string;
  private readonly workbook: Workbook;
  private readonly offers: RowWrites<never>;
  private readonly sets: RowWrites<never>;
  private readonly creatives: RowWrites<Material>;
  private readonly book: StateBook;
  private readonly log: ChangeLog;
  private requests = 0;
  private remaining = 0;
  /** Rows the API refused before, unchanged: not sent again. */
  private refusedAgain = 0;

  constructor(
    private readonly platform: Platform,
    private readonly dryRun = false,
  ) {
    this.budget = new TimeBudget(() => platform.clock.now());
    const connected = connect(platform, this.budget.retryDeadline);
    this.client = connected.client;
    this.account = accountLabel(connected.account);
    this.acting = connected.account;
    this.workbook = platform.workbook();
    const now = () => platform.clock.now();
    const open = <S>(schema: SheetSchema<S>) =>
      new RowWrites(openTable(this.workbook, schema, {create: true})!, now);
    this.offers = open(NEW_OFFERS);
    this.sets = open(CREATIVE_SETS);
    this.creatives = open(CREATIVES);
    this.book = StateBook.open(this.workbook);
    this.log = new ChangeLog(platform, JOB, this.account);
  }

  /** The History rows of an offer's tracking this run sent. */
  private logTracking(m: Made, outcome: HistoryOutcome, message: string) {
    const tracking = m.tracking!;
    this.log.add(
      (['tracking_method', 'click_url', 'support_server_click'] as const).map(
        field => ({
          sheet: NEW_OFFERS.name,
          record: String(m.offerId),
          field,
          before: '',
          after: tracking[field],
          outcome,
          message,
        }),
      ),
    );
  }

  /** A History row of an offer this run created, or tried to. */
  private logOffer(
    record: string | number,
    name: string,
    outcome: HistoryOutcome,
    message: string,
  ): void {
    this.log.add([
      {
        sheet: NEW_OFFERS.name,
        record: String(record),
        field: 'offer created',
        before: '',
        after: name,
        outcome,
        message,
      },
    ]);
  }

  run(): JobSummary {
    const plan = readPlan(
      {
        offers: this.offers.table,
        sets: this.sets.table,
        creatives: this.creatives.table,
      },
      this.workbook,
      createdOffers(this.book),
    );
    if (!this.dryRun) rememberCreated(this.book, plan.legacy);
    for (const refused of plan.refused) {
      const writes = refused.table === 'offers' ? this.offers : this.sets;
      writes.status(refused.index, 'INVALID', refused.message);
    }
    for (const candidate of plan.candidates) {
      if (candidate.problems.length > 0) {
        // A row whose earlier create is unsettled keeps its marker: once fixed, its offer is
        // looked up under the name that create carried before anything is sent.
        const marker = candidate.sent
          ? `${createSentAs(candidate.sentAs ?? candidate.name)} by an earlier run, its outcome unknown; this row cannot go on: `
          : '';
        this.offers.status(
          candidate.index,
          'INVALID',
          `${marker}${candidate.problems.join('; ')}. ${NOT_SENT}`,
        );
      }
    }
    const total = plan.candidates.length + plan.created.length;
    const sendable = this.notRefusedBefore(
      plan.candidates.filter(c => c.problems.length === 0),
    );
    if (this.dryRun)
      return this.preview(plan, sendable, total + plan.refused.length);
    this.platform.progress.report(JOB, 0, total);
    const valid = this.unused(sendable);
    const made: Made[] = [
      ...valid.found,
      ...plan.created
        .filter(c => this.trackable(c))
        .map(c => ({...c, origin: 'exists' as const, notes: []})),
    ];
    this.record();
    const ready = this.withMaterials(valid.free);
    made.push(...this.create(ready));
    this.record();
    this.track(made);
    this.markSets(plan.candidates);
    this.creatives.flush();
    this.sets.flush();
    this.record();
    this.platform.progress.report(JOB, total, total);
    return this.log.close(
      this.workbook,
      this.summary(plan, total + plan.refused.length),
    );
  }

  /**
   * Puts what a re-run needs into the spreadsheet now: the rows' markers and ids, and the
   * memory of the offers made and of the values sent. Apps Script sends queued writes only
   * at its next round trip, and drops them when it kills the execution.
   */
  private record(): void {
    this.book.save();
    this.offers.flush();
    this.workbook.flush();
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
      const named = this.budget.batch(() =>
        offersNamed(
          this.client,
          candidates.flatMap(c => (c.sentAs ? [c.name, c.sentAs] : [c.name])),
        ),
      );
      if (!named) {
        for (const c of candidates) this.later(c);
        return {free: [], found: []};
      }
      this.requests += named.requests;
      byName = named.byName;
    } catch (e) {
      // Settings at fault (an unknown sub-account) concern the whole job, not these rows.
      if (e instanceof ConfigError) throw e;
      const reason = (e as Error).message;
      for (const c of candidates) {
        this.offers.status(
          c.index,
          'ERROR',
          c.sent
            ? unsettled(c, `looking the offer up failed (${reason})`)
            : `Could not check that offer_name ${c.name} is not taken (${reason}). ${NOT_SENT} Run Create new offers again.`,
        );
      }
      return {free: [], found: []};
    }
    const free: OfferPlan[] = [];
    const found: Made[] = [];
    for (const c of candidates) {
      const same = byName.get(c.name) ?? [];
      const mine = madeBy(same, c);
      const renamed =
        c.sentAs !== undefined && c.sentAs !== c.name
          ? madeBy(byName.get(c.sentAs) ?? [], c)
          : undefined;
      if (renamed && !mine) {
        // Offer names cannot be changed through the API: the row must name its offer again.
        this.offers.status(
          c.index,
          'ERROR',
          `${createSentAs(c.sentAs!)} by an earlier run made offer ${renamed.offer_id}, but this row now says offer_name ${c.name}: put ${c.sentAs} back in offer_name and ${RERUN} to resume that offer (the API cannot rename it). ${NOT_SENT}`,
        );
      } else if (same.length === 0) {
        free.push(c);
      } else if (c.sent && mine) {
        found.push(this.made(c, Number(mine.offer_id), 'found'));
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

  /**
   * An offer made from the row: its id goes into the row, and into the memory of offers made;
   * the row's status says what is left, true even if the run is cut off before the tracking.
   */
  private made(c: OfferPlan, offerId: number, origin: Origin): Made {
    this.offers.set(c.index, 'offer_id', offerId);
    rememberCreateVerdict(this.book, c.name, undefined);
    this.logOffer(offerId, c.name, 'OK', `${WHAT[origin](offerId)}.`);
    rememberCreated(this.book, [
      {offer_id: offerId, offer_name: c.name, campaign_id: c.body!.campaign_id},
    ]);
    const made = {
      index: c.index,
      offerId,
      tracking: c.tracking,
      origin,
      notes: c.notes,
    };
    if (made.tracking) {
      this.offers.status(c.index, 'ERROR', trackingLeft(WHAT[origin](offerId)));
    } else {
      this.offers.status(
        c.index,
        'OK',
        `${WHAT[origin](offerId)}.${notes(made)}`,
      );
    }
    return made;
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
        owner: {account: this.acting, book: this.book, context: this.workbook},
      },
      [...pending].sort((a, b) => a - b),
    );
    this.requests += upload.requests;
    this.log.add(uploadChanges(this.creatives.table, upload));
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
              `material ${excerpt(item)} (Creatives row ${material.row}) could not be uploaded: see that row`,
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
        this.later(c);
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

  /**
   * A row the time left unsent. One whose earlier create is still unsettled keeps saying so,
   * so that the next run adopts its offer if it turns up.
   */
  private later(c: OfferPlan): void {
    this.remaining++;
    if (c.sent) {
      this.offers.status(c.index, 'ERROR', unsettled(c, 'the time ran out'));
    } else {
      this.offers.status(
        c.index,
        'EDITED',
        'Not sent yet: the time ran out. Run Create new offers again to continue.',
      );
    }
  }

  /** Sends the creates batch by batch; each batch's offer_ids are written before the next step. */
  private create(
    ready: Array<{plan: OfferPlan; request: CreateOfferRequest}>,
  ): Made[] {
    const made: Made[] = [];
    const size = this.client.batchSize;
    for (let start = 0; start < ready.length; start += size) {
      const chunk = ready.slice(start, start + size);
      const sentAt = new Date(this.platform.clock.now()).toISOString();
      const outcomes = this.budget.batch(() => {
        for (const {plan} of chunk) {
          this.offers.status(
            plan.index,
            'ERROR',
            `${createSentAs(plan.name)} at ${sentAt}, but its answer was never recorded: ${RERUN}; it looks the offer up by name before sending anything.`,
          );
        }
        this.record();
        return sendCreates(
          this.client,
          chunk.map(r => r.request),
        );
      });
      if (!outcomes) {
        for (const {plan} of ready.slice(start)) this.later(plan);
        break;
      }
      this.requests += chunk.length;
      const lost: Array<{plan: OfferPlan; error: Error}> = [];
      chunk.forEach(({plan, request}, i) => {
        const outcome = outcomes[i];
        const offerId = outcome.ok ? Number(outcome.data?.offer_id) : NaN;
        if (outcome.ok && Number.isSafeInteger(offerId) && offerId > 0) {
          made.push(this.made(plan, offerId, 'created'));
        } else if (outcome.ok) {
          // A success without an offer id proves the create, not which offer it made.
          lost.push({
            plan,
            error: new Error('the answer named no offer_id'),
          });
        } else if (outcome.error instanceof OutcomeUnknownError) {
          lost.push({plan, error: outcome.error.cause});
        } else {
          const refusal = this.refusal(plan, outcome.error);
          this.offers.status(plan.index, 'ERROR', refusal);
          this.logOffer(plan.name, plan.name, 'ERROR', refusal);
          if (hasVerdict(outcome.error)) {
            rememberCreateVerdict(
              this.book,
              plan.name,
              this.printOf(plan, request.creative_sets),
            );
          }
        }
      });
      this.record();
      made.push(...this.resolveLost(lost));
      this.record();
    }
    return made;
  }

  private refusal(plan: OfferPlan, error: Error): string {
    const next = hasVerdict(error)
      ? ` ${RESEND_REFUSED}`
      : ' The next run sends it again.';
    if (error instanceof ApiError && /permission denied/i.test(error.msg)) {
      return `billing_type: the ${this.account} lacks the permission to create ${plan.body!.billing_type} offers (the API answered "Permission denied"). Nothing was created.${next}`;
    }
    return `${error.message}. Nothing was created.${next}`;
  }

  /**
   * What a row's create sends, and to which account, as a print: the same print, the same
   * request. `creativeSets` name each material as the request does (creative_name and
   * creative_md5), so a row whose Creatives row now holds another material, or a file still to
   * upload, prints otherwise; and a row refused as one account is sent again as another.
   */
  private printOf(c: OfferPlan, creativeSets: readonly unknown[]): string {
    return this.platform.digest.md5Hex(
      JSON.stringify({
        account: this.account,
        request: {...c.body!, creative_sets: creativeSets},
        tracking: c.tracking ?? null,
      }),
    );
  }

  /** A row's creative sets as its create would send them, a file not uploaded yet by its file. */
  private static plannedSets(c: OfferPlan): unknown[] {
    return c.sets.map(set => ({
      ...set.draft!,
      creatives: set.materials.map(({material: m}) =>
        m.creative_md5
          ? {creative_name: m.creative_name, creative_md5: m.creative_md5}
          : {file: m.file},
      ),
    }));
  }

  /**
   * The rows to send. A row the API refused with a verdict at an earlier run, unchanged since
   * and still showing that ERROR, keeps it and is not sent (counted as skipped): the same
   * request would only be refused again. Changing the row, or clearing its sync_status, sends it;
   * and the refusal is forgotten then, since whatever the row says next (a failed lookup, the
   * time running out) is no longer that refusal, and asks for a run that sends it.
   */
  private notRefusedBefore(candidates: OfferPlan[]): OfferPlan[] {
    const refused = refusedCreates(this.book);
    return candidates.filter(c => {
      const before = refused[c.name];
      if (!before) return true;
      const shown = String(cellOf(this.offers.table, c.index, SYNC_STATUS));
      if (
        shown !== 'ERROR' ||
        before !== this.printOf(c, CreateRun.plannedSets(c))
      ) {
        if (!this.dryRun) rememberCreateVerdict(this.book, c.name, undefined);
        return true;
      }
      // Its row already says why, as a push leaves a refused row unchanged.
      this.refusedAgain++;
      return false;
    });
  }

  /**
   * Creates whose answer proves nothing: the account is asked whether they happened. A create
   * not found is left for the next run, which looks it up again before sending it.
   */
  private resolveLost(lost: Array<{plan: OfferPlan; error: Error}>): Made[] {
    if (lost.length === 0) return [];
    const answered = (plan: OfferPlan, error: Error) =>
      `${createSentAs(plan.name)}, but its outcome is unknown (${error.message})`;
    let byName: Map<string, Offer[]> | undefined;
    let failure = '';
    try {
      const named = this.budget.batch(() =>
        offersNamed(
          this.client,
          lost.map(l => l.plan.name),
        ),
      );
      if (named) {
        this.requests += named.requests;
        byName = named.byName;
      } else {
        failure = 'the time ran out before the offer could be looked up';
      }
    } catch (e) {
      failure = `looking the offer up failed too (${(e as Error).message})`;
    }
    const made: Made[] = [];
    for (const {plan, error} of lost) {
      const offer = madeBy(byName?.get(plan.name) ?? [], plan);
      if (offer) {
        made.push(this.made(plan, Number(offer.offer_id), 'found'));
      } else {
        const message = byName
          ? `${answered(plan, error)}, and no offer named ${plan.name} is listed: ${RERUN}; it looks the offer up by name first and sends it only if it still does not exist.`
          : `${answered(plan, error)}, and ${failure}: ${RERUN}; it looks the offer up by name before sending anything.`;
        this.offers.status(plan.index, 'ERROR', message);
        // A list may lag behind a create: not listed is no proof that it was not made.
        this.logOffer(plan.name, plan.name, 'UNKNOWN', message);
      }
    }
    return made;
  }

  /** Sets the tracking of the offers that have it filled; every such row gets its status. */
  private track(made: Made[]): void {
    const what = (m: Made) => WHAT[m.origin](m.offerId);
    const withTracking = made.filter(m => m.tracking);
    for (const m of made) {
      if (!m.tracking)
        this.offers.status(m.index, 'OK', `${what(m)}.${notes(m)}`);
    }
    const size = this.client.batchSize;
    for (let start = 0; start < withTracking.length; start += size) {
      const chunk = withTracking.slice(start, start + size);
      const outcomes = this.budget.batch(() =>
        setTracking(
          this.client,
          chunk.map(m => ({offer_id: m.offerId, ...m.tracking!})),
        ),
      );
      if (!outcomes) {
        for (const m of withTracking.slice(start)) {
          this.remaining++;
          this.offers.status(
            m.index,
            'ERROR',
            trackingLeft(what(m), ' (the time ran out)'),
          );
        }
        break;
      }
      this.requests += chunk.length;
      const accepted: Array<{offer_id: number; support_server_click: string}> =
        [];
      chunk.forEach((m, i) => {
        const outcome = outcomes[i];
        const log = (outcome: HistoryOutcome, message: string) => {
          this.offers.status(
            m.index,
            outcome === 'OK' ? 'OK' : 'ERROR',
            message,
          );
          this.logTracking(m, outcome, message);
        };
        if (outcome.ok) {
          rememberTrackingVerdict(this.book, m.offerId, undefined);
          accepted.push({
            offer_id: m.offerId,
            support_server_click: m.tracking!.support_server_click,
          });
          log('OK', `${what(m)}; tracking set.${notes(m)}`);
        } else if (hasVerdict(outcome.error)) {
          rememberTrackingVerdict(
            this.book,
            m.offerId,
            trackingKey(m.tracking!),
          );
          log(
            'ERROR',
            `Offer ${m.offerId} exists (offer_id filled in), but the API refused its tracking: ${outcome.error.message}. Change tracking_method, click_url or support_server_click, then run Create new offers again: only the tracking is sent, and not before it changes.`,
          );
        } else if (outcome.error instanceof OutcomeUnknownError) {
          log(
            'UNKNOWN',
            `Offer ${m.offerId} exists (offer_id filled in), but the answer to setting its tracking was lost (${outcome.error.message}): it may or may not be set. Run Create new offers again to send the tracking only, once more (a new offer's click-URL test starts again).`,
          );
        } else {
          log(
            'ERROR',
            `Offer ${m.offerId} exists (offer_id filled in), but setting its tracking failed: ${outcome.error.message}. Run Create new offers again to retry the tracking only.`,
          );
        }
      });
      rememberServerClicks(this.book, accepted);
      this.record();
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
            `Not created yet: New Offers row ${sheetRow(c.index)} is ${outcome.status}: ${outcome.message}`,
          );
        }
      }
    }
  }

  /**
   * What a run would send, row by row, sending nothing and saving nothing: each row it would
   * send EDITED with what it does, in the order it does it.
   */
  private preview(
    plan: Plan,
    sendable: readonly OfferPlan[],
    looked: number,
  ): JobSummary {
    const wouldSend: unknown[] = [];
    const uploads = new Set<number>();
    let requests = 0;
    for (const c of sendable) {
      const mine = new Set<number>();
      const creativeSets = c.sets.map(set => ({
        ...set.draft!,
        creatives: set.materials.map(({material}) => {
          if (material.creative_md5) {
            return {
              creative_name: material.creative_name,
              creative_md5: material.creative_md5,
            };
          }
          mine.add(material.row);
          return {uploaded_first: `Creatives row ${material.row}`};
        }),
      }));
      // A material several offers use is uploaded once.
      for (const row of mine) {
        if (!uploads.has(row)) requests++;
        uploads.add(row);
      }
      requests += c.tracking ? 2 : 1;
      wouldSend.push({...c.body!, creative_sets: creativeSets});
      this.offers.status(c.index, 'EDITED', previewOf(c, [...mine]));
    }
    let skipped = plan.done + this.refusedAgain;
    for (const row of plan.created) {
      if (!this.trackable(row)) continue;
      if (!row.tracking) {
        // Nothing to send: the run only marks it OK.
        skipped++;
        continue;
      }
      requests++;
      wouldSend.push({offer_id: row.offerId, ...row.tracking});
      this.offers.status(
        row.index,
        'EDITED',
        `Preview: a run sets the tracking of offer ${row.offerId} (tracking_method ${row.tracking.tracking_method}), only that.`,
      );
    }
    this.markSets(plan.candidates);
    this.offers.flush();
    this.sets.flush();
    const counts = this.counts(plan);
    if (looked === 0)
      return {...counts, message: nothingToCreate(this.account)};
    return previewSummary(
      {...counts, skipped},
      {
        sheet: NEW_OFFERS.name,
        edited: this.offers.count('EDITED'),
        requests,
        wouldSend,
      },
    );
  }

  /** Counts New Offers rows, and Creative Sets rows that belong to no offer. */
  private counts(plan: Plan): Omit<JobSummary, 'message'> {
    const strays = plan.refused.filter(r => r.table === 'sets').length;
    return {
      job: JOB,
      account: this.account,
      ok: this.offers.count('OK'),
      invalid: this.offers.count('INVALID') + strays,
      error: this.offers.count('ERROR'),
      skipped: plan.done + this.refusedAgain,
      remaining: this.remaining,
      dryRun: this.dryRun,
      problems: [
        ...this.offers.problems(),
        ...this.sets.problems(),
        ...this.creatives.problems(),
      ].slice(0, MAX_PROBLEMS),
      requests: this.requests,
    };
  }

  private summary(plan: Plan, looked: number): JobSummary {
    const counts = this.counts(plan);
    const message =
      looked === 0
        ? nothingToCreate(this.account)
        : summaryLine(counts, NEW_OFFERS.name);
    return {...counts, message};
  }
}

const nothingToCreate = (account: string) =>
  `Nothing to create (${account}): write offers in New Offers (one row each, offer_id empty) and their creative sets in Creative Sets.`;

/** A row a run would create: what it sends, in order, starting with the lookup of its name. */
function previewOf(c: OfferPlan, uploads: number[]): string {
  const body = c.body!;
  const upload =
    uploads.length === 0
      ? ''
      : `uploads the ${uploads.length === 1 ? 'file of Creatives row' : 'files of Creatives rows'} ${uploads.join(', ')} first, `;
  const create = `${upload}creates offer ${c.name} (billing_type ${body.billing_type}, campaign ${body.campaign_id}, ${counted(c.sets.length, 'creative set')})${c.tracking ? ', then sets its tracking (1 more request)' : ''}`;
  if (!c.sent) {
    return `Preview: a run looks offer_name ${c.name} up (a name the account already has is refused), ${create}.${notes(c)}`;
  }
  const names =
    c.sentAs !== undefined && c.sentAs !== c.name
      ? `${c.name} and ${c.sentAs}`
      : c.name;
  return `${createSentAs(c.sentAs ?? c.name)} by an earlier run, its outcome unknown. Preview: a run looks offer_name ${names} up first and, if that create made the offer, takes it${c.tracking ? ' and sets its tracking' : ''}; only if no such offer exists, it ${create}.${notes(c)}`;
}

export function createOffers(
  platform: Platform,
  options: PushOptions = {},
): JobSummary {
  return withDocumentLock(platform, () =>
    new CreateRun(platform, options.dryRun === true).run(),
  );
}
