/**
 * What a create run would send, row by row, sending nothing and saving nothing: each row it
 * would send EDITED with what it does, in the order it does it. It does not look names up (a
 * GET would only say early what the run says anyway), so each row says the run does first.
 */
import {counted} from '../../text/wording';
import type {JobFacts} from '../kernel';
import type {CreateRun} from './context';
import {OfferPlan, Plan} from './new-offer-plan';
import {createSentAs} from './sent-creates';
import {GuardReason, NO_LIMIT, capsText, guardHolds} from './offer-budget-hold';
import {notes} from './offer-outcomes';
import {answerLost, trackable} from './offer-tracking';

/**
 * What the preview would send: the bodies it knows, and how many requests in all, the
 * lookups of the names it creates included (one per distinct name), as each row lists them.
 */
interface WouldSend {
  bodies: unknown[];
  requests: number;
  lookups: Set<string>;
}

/** Marks the rows a run would send; answers the facts the preview's summary adds. */
export function preview(
  run: CreateRun,
  plan: Plan,
  sendable: readonly OfferPlan[],
): Pick<JobFacts, 'skipped' | 'edited' | 'wouldSend' | 'wouldRequest'> {
  const would: WouldSend = {bodies: [], requests: 0, lookups: new Set()};
  const uploads = new Set<number>();
  const holds = guardHolds(run, sendable);
  for (const c of sendable) previewCreate(run, c, uploads, would, holds);
  let skipped = plan.done + run.counts.refusedAgain;
  for (const row of plan.created) {
    if (!trackable(run, row)) continue;
    if (!row.tracking) {
      // Nothing to send: the run only marks it OK.
      skipped++;
      continue;
    }
    would.requests++;
    would.bodies.push({offer_id: row.offerId, ...row.tracking});
    const sets = `sets the tracking of offer ${row.offerId} (tracking_method ${row.tracking.tracking_method})`;
    run.offers.status(
      row.index,
      'EDITED',
      answerLost(run, row.offerId, row.tracking)
        ? `Preview: the answer to setting this tracking was lost: a run reads it back first, and ${sets} only if it is not set.`
        : `Preview: a run ${sets}, only that.`,
    );
  }
  return {
    skipped,
    edited: run.offers.count('EDITED'),
    wouldSend: would.bodies,
    wouldRequest: would.requests + would.lookups.size,
  };
}

/** A row a run would create: its body as sent, its uploads counted once across rows. */
function previewCreate(
  run: CreateRun,
  c: OfferPlan,
  uploads: Set<number>,
  would: WouldSend,
  holds: GuardReason,
): void {
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
    if (!uploads.has(row)) would.requests++;
    uploads.add(row);
  }
  would.requests += c.tracking ? 2 : 1;
  for (const name of [c.name, c.sentAs ?? c.name]) would.lookups.add(name);
  would.bodies.push({...c.body!, creative_sets: creativeSets});
  const why = c.sent ? undefined : holds(c);
  const asked =
    why === undefined
      ? ''
      : why === NO_LIMIT
        ? ' The budget guard holds it: a run asks you before creating an offer with no limit.'
        : ` The budget guard holds it: a run asks you before creating it, as ${why}.`;
  run.offers.status(c.index, 'EDITED', previewOf(c, [...mine]) + asked);
}

/** A row a run would create: what it sends, in order, starting with the lookup of its name. */
function previewOf(c: OfferPlan, uploads: number[]): string {
  const body = c.body!;
  const upload =
    uploads.length === 0
      ? ''
      : `uploads the ${uploads.length === 1 ? 'file of Creatives row' : 'files of Creatives rows'} ${uploads.join(', ')} first, `;
  const create = `${upload}creates offer ${c.name} (billing_type ${body.billing_type}, campaign ${body.campaign_id}, ${counted(c.sets.length, 'creative set')}, ${capsText(body)})${c.tracking ? ', then sets its tracking (1 more request)' : ''}`;
  if (!c.sent) {
    return `Preview: a run looks offer_name ${c.name} up (a name the account already has is refused), ${create}.${notes(c)}`;
  }
  const names =
    c.sentAs !== undefined && c.sentAs !== c.name
      ? `${c.name} and ${c.sentAs}`
      : c.name;
  return `${createSentAs(c.sentAs ?? c.name, c.account)} by an earlier run, its outcome unknown. Preview: a run looks offer_name ${names} up first and, if that create made the offer, takes it${c.tracking ? ' and sets its tracking' : ''}; only if no such offer exists, it ${create}.${notes(c)}`;
}
