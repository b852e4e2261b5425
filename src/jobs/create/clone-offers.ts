/**
 * cloneOffers (DESIGN 4.2, 4.6): each source offer, as the last refresh left it, into each
 * target (other geos of its account, or another account), as New Offers, Creative Sets and
 * Creatives rows for the user to review; Create new offers then uploads, creates and sets the
 * tracking as for any new offer, signed by the target account. Sends no write: it reads the
 * campaigns of the accounts involved (the target's campaign of the source's package) and,
 * for a target in another account, which of the source's materials that account has.
 *
 * A spec that cannot be followed (no source, an offer the last refresh did not list, an
 * account whose campaigns cannot be read, a geo that is no code, a name pattern that makes no
 * offer name) writes nothing and says why; a target account without a campaign of the package gets its row,
 * INVALID naming campaign_id and the package.
 */
import {ConfigError} from '../../api/errors';
import {campaignsListing, materialsListing} from '../../api/operations';
import {listEach} from '../../api/paging';
import type {Campaign, Material} from '../../api/types';
import type {Platform} from '../../platform/ports';
import {
  DEFAULT_CLONE_NAME,
  bidGoalOf,
  bidRateFor,
  capsFor,
  cloneName,
  namePatternProblem,
  uniqueName,
} from '../../rules/clone';
import {readGeoList} from '../../rules/geo';
import {excerpt} from '../../rules/values';
import {accountCell} from '../../sheets/accounts';
import {encode} from '../../sheets/codec';
import {CREATIVE_SETS} from '../../sheets/schemas/creative-sets';
import {CREATIVES} from '../../sheets/schemas/creatives';
import {NEW_OFFERS} from '../../sheets/schemas/new-offers';
import {counted} from '../../text/wording';
import {Job, withJob} from '../kernel';
import type {RowWrites} from '../row-writes';
import type {JobSummary} from '../run';
import {
  SourceOffer,
  SourceSheets,
  listOf,
  readSourceSheets,
  sourceOffer,
} from './clone-sources';
import {createdOffers} from '../../state/created-offers';

const JOB = 'cloneOffers';

/** What to clone where (DESIGN 4.2): `account` '' is the main account. */
export interface CloneSpec {
  from: Array<{account: string; offer_id: number | string}>;
  to: Array<{account: string; target_geo: string}>;
  name?: string;
}

interface Target {
  account: string;
  geos: string[];
}

/** The request fields of 4.2 a clone takes as the source has them (Offers header = New Offers header). */
const AS_THE_SOURCE = [
  'promote_timezone',
  'end_time',
  'target_agg_event',
  'target_original_event',
  'target_goal_window',
  'target_goal',
  'target_goal_by_geo',
  'settlement_event',
  'os_version_min',
  'custom_ad_schedule',
  'network',
  'target_device',
  'tracking_method',
  'click_url',
] as const;

export function cloneOffers(platform: Platform, spec: unknown): JobSummary {
  return withJob(platform, JOB, {}, job => {
    const sheets = readSourceSheets(job.workbook);
    const {sources, targets, pattern} = readSpec(job, sheets, spec);
    const campaigns = campaignsOf(job, [
      ...new Set([...sources, ...targets].map(s => s.account)),
    ]);
    const writes = {
      offers: job.rows(NEW_OFFERS),
      sets: job.rows(CREATIVE_SETS),
      creatives: job.rows(CREATIVES),
    };
    const has = materialsOf(job, sources, targets);
    const taken = takenNames(sheets);
    const queued = queuedFiles(sheets);
    let rows = 0;
    for (const source of sources) {
      for (const target of targets) {
        cloneInto(job, writes, {
          source,
          target,
          pattern,
          campaigns,
          has,
          taken,
          queued,
        });
        rows++;
      }
    }
    return job.summary({
      sheet: NEW_OFFERS.name,
      ok: 0,
      invalid: writes.offers.count('INVALID'),
      error: 0,
      skipped: 0,
      requests: 0,
      problems: writes.offers.problems(),
      message: `Wrote ${counted(rows, 'clone')} into ${NEW_OFFERS.name}, with ${CREATIVE_SETS.name} and ${CREATIVES.name} rows; nothing was sent: review the rows, then run Create new offers.${writes.offers.count('INVALID') > 0 ? ` ${counted(writes.offers.count('INVALID'), 'row')} cannot be created as they are: see their sync_message.` : ''}`,
    });
  });
}

/** The spec read, or a ConfigError naming what is wrong in it: nothing is written then. */
function readSpec(
  job: Job,
  sheets: SourceSheets,
  spec: unknown,
): {sources: SourceOffer[]; targets: Target[]; pattern: string} {
  const s = (spec ?? {}) as Partial<CloneSpec>;
  const say = (why: string) =>
    new ConfigError(`Clone offers: ${why}. Nothing was written.`);
  if (!Array.isArray(s.from) || s.from.length === 0)
    throw say('select the offers to clone (rows of Offers)');
  if (!Array.isArray(s.to) || s.to.length === 0)
    throw say('give at least one target: an account and its geos');
  const pattern = String(s.name ?? '').trim() || DEFAULT_CLONE_NAME;
  const patternProblem = namePatternProblem(pattern);
  if (patternProblem) throw say(patternProblem);
  const created = createdOffers(job.book, job.workbook);
  const sources = s.from.map(f => {
    const account = String(f?.account ?? '');
    const id = Number(f?.offer_id);
    const found = Number.isInteger(id)
      ? sourceOffer(sheets, created, account, id)
      : undefined;
    if (!found) {
      throw say(
        `offer ${excerpt(f?.offer_id, typeof f?.offer_id !== 'number')} of account ${accountCell(account)} is not in the Offers sheet as the last refresh left it: refresh offers, then select its row`,
      );
    }
    return found;
  });
  const targets = s.to.map(t => {
    const account = String(t?.account ?? '');
    const geos = readGeoList(t?.target_geo ?? '');
    if ('problem' in geos || String(t?.target_geo ?? '').trim() === '') {
      throw say(
        `the target geos ${excerpt(t?.target_geo ?? '')} of account ${accountCell(account)} ${'problem' in geos ? geos.problem : 'are empty: give ALL or codes such as US,GB'}`,
      );
    }
    return {account, geos: geos.geos};
  });
  return {sources, targets, pattern};
}

/**
 * Every campaign of each account, listed together. An account whose list fails (a name the
 * main account has no sub-account of: its keys cannot be had) stops the clone, named.
 */
function campaignsOf(job: Job, accounts: string[]): Map<string, Campaign[]> {
  const lists = listEach(
    accounts.map(a => ({
      ...campaignsListing(job.connected.clientFor(a)),
      isolated: true,
    })),
  );
  const failed = lists.findIndex(l => l.failed);
  if (failed >= 0) {
    throw new ConfigError(
      `Clone offers: account ${excerpt(accountCell(accounts[failed]))} could not be read (${lists[failed].failed!.message}): is it the main account or one of its sub-accounts? Nothing was written.`,
    );
  }
  return new Map(accounts.map((a, i) => [a, lists[i].items]));
}

/** account -> the md5s of the sources' materials it has (for targets in other accounts). */
function materialsOf(
  job: Job,
  sources: SourceOffer[],
  targets: Target[],
): Map<string, Set<string>> {
  const has = new Map<string, Set<string>>();
  const needs = new Map<string, Set<string>>();
  for (const source of sources) {
    const md5s = source.sets.flatMap(set =>
      set.creatives.flatMap(c => (c.md5 ? [c.md5] : [])),
    );
    has.set(
      source.account,
      new Set([...(has.get(source.account) ?? []), ...md5s]),
    );
    for (const target of targets) {
      if (target.account === source.account) continue;
      needs.set(
        target.account,
        new Set([...(needs.get(target.account) ?? []), ...md5s]),
      );
    }
  }
  const asked = [...needs].filter(([, md5s]) => md5s.size > 0);
  const lists = listEach(
    asked.map(([account, md5s]) =>
      materialsListing(job.connected.clientFor(account), {
        creative_md5: [...md5s],
      }),
    ),
  );
  asked.forEach(([account], i) =>
    has.set(
      account,
      new Set([
        ...(has.get(account) ?? []),
        ...lists[i].items.map(m => m.creative_md5),
      ]),
    ),
  );
  return has;
}

/** account -> the files and md5s of its Creatives rows: a material is never queued twice. */
function queuedFiles(sheets: SourceSheets): Map<string, Set<string>> {
  const queued = new Map<string, Set<string>>();
  for (const {account, values} of sheets.creatives) {
    const files = queued.get(account ?? '') ?? new Set<string>();
    for (const header of ['file', 'creative_md5'])
      if (values[header]) files.add(String(values[header]));
    queued.set(account ?? '', files);
  }
  return queued;
}

/** account -> offer names its offers and New Offers rows hold (lower case). */
function takenNames(sheets: SourceSheets): Map<string, Set<string>> {
  const taken = new Map<string, Set<string>>();
  for (const row of [...sheets.offers, ...sheets.newOffers]) {
    const account = row.account ?? '';
    const names = taken.get(account) ?? new Set<string>();
    names.add(String(row.values.offer_name ?? '').toLowerCase());
    taken.set(account, names);
  }
  return taken;
}

interface Writes {
  offers: RowWrites<never>;
  sets: RowWrites<never>;
  creatives: RowWrites<Material>;
}

interface Clone {
  source: SourceOffer;
  target: Target;
  pattern: string;
  campaigns: Map<string, Campaign[]>;
  has: Map<string, Set<string>>;
  taken: Map<string, Set<string>>;
  /** account -> files and md5s its Creatives rows hold, those this run adds included. */
  queued: Map<string, Set<string>>;
}

/** One source into one target: its New Offers row, Creative Sets rows and missing materials. */
function cloneInto(job: Job, writes: Writes, clone: Clone): void {
  const {source, target} = clone;
  const f = source.fields;
  const notes: string[] = [];
  const problems: string[] = [];
  const geo = target.geos.join('_');
  const named = cloneName(clone.pattern, {
    offer_name: String(f.offer_name ?? ''),
    geo,
    account: target.account,
    offer_id: source.offer_id,
  });
  const taken = clone.taken.get(target.account) ?? new Set<string>();
  clone.taken.set(target.account, taken);
  let name: string;
  if ('problem' in named) {
    problems.push(`offer_name: ${named.problem}`);
    name = '';
  } else {
    name = uniqueName(named.name, taken);
    if (name !== named.name)
      notes.push(`named ${name}: ${named.name} is taken in that account`);
    taken.add(name.toLowerCase());
  }

  const row = writes.offers.append();
  const put = (header: string, value: unknown) => {
    const column = NEW_OFFERS.columns.find(c => c.header === header)!;
    writes.offers.set(row, header, encode(column, value));
  };
  put('account', accountCell(target.account));
  put('offer_name', name);

  const campaign = campaignFor(clone, problems);
  if (campaign) put('campaign_id', campaign.campaign_id);
  put('target_geo', target.geos.join(','));
  for (const header of AS_THE_SOURCE) put(header, f[header]);

  const now = Math.floor(job.platform.clock.now() / 1000);
  const start = Number(f.start_time);
  const begins = Number.isFinite(start) && start > now ? start : now;
  writes.offers.set(row, 'start_time', String(begins));
  if (begins === now)
    notes.push("start_time now: the source's start had passed");
  const end = Number(f.end_time);
  if (Number.isFinite(end) && end > 0 && end <= begins) {
    put('end_time', null);
    notes.push("end_time left empty: the source's end had passed");
  }
  const billing = String(f.bid_type ?? '');
  put('billing_type', billing);
  if (billing.toUpperCase() === 'OCPI') {
    const goal = bidGoalOf(f);
    if (goal) {
      put('bid_goal', goal);
      notes.push(
        `bid_goal ${goal}, read from the source's optimisation events`,
      );
    }
  } else {
    const targetGeos = target.geos.includes('ALL') ? [] : target.geos;
    const price = bidRateFor(
      f.bid_rate === null || f.bid_rate === undefined
        ? null
        : Number(f.bid_rate),
      Array.isArray(f.bid_rate_by_location) ? f.bid_rate_by_location : [],
      targetGeos,
    );
    put('bid_rate', price.bid_rate);
    if (price.note) notes.push(price.note);
    put('target_ad_type', f.target_ad_type);
  }
  const caps = capsFor(
    Array.isArray(f.budget) ? f.budget : [],
    target.geos.includes('ALL') ? ['ALL'] : target.geos,
  );
  put('daily_cap_type', caps.daily_cap_type);
  put('daily_cap', caps.daily_cap);
  put('total_budget', caps.total_budget);
  notes.push(caps.note);
  const serverClick = String(f.support_server_click ?? '');
  put('support_server_click', serverClick || 'NO');
  if (!serverClick)
    notes.push(
      'support_server_click NO: the add-on never sent the source one, and the offers list does not return it',
    );

  notes.push(setsInto(writes, clone, name));
  const from = `Cloned from offer ${source.offer_id} (${accountCell(source.account)})`;
  if (problems.length > 0) {
    writes.offers.status(
      row,
      'INVALID',
      `${from}: ${problems.join('; ')}. ${notes.join('; ')}. Nothing was sent.`,
    );
  } else {
    writes.offers.status(
      row,
      'EDITED',
      `${from}: ${notes.join('; ')}. Review the row, then run Create new offers.`,
    );
  }
}

/** The target account's campaign of the source's package, or why there is none. */
function campaignFor(clone: Clone, problems: string[]): Campaign | undefined {
  const {source, target} = clone;
  const own = clone.campaigns
    .get(source.account)
    ?.find(c => c.campaign_id === Number(source.fields.campaign_id));
  const pkg = own?.package_name ?? '';
  if (!pkg) {
    problems.push(
      `campaign_id: the source's campaign ${excerpt(source.fields.campaign_id)} has no package_name in account ${accountCell(source.account)}, so no campaign of another account can be matched to it`,
    );
    return undefined;
  }
  const same = (clone.campaigns.get(target.account) ?? []).filter(
    c => c.package_name === pkg,
  );
  if (same.length === 0) {
    problems.push(
      `campaign_id: account ${accountCell(target.account)} has no campaign of package ${pkg}`,
    );
    return undefined;
  }
  return same.find(c => c.campaign_id === own!.campaign_id) ?? same[0];
}

/**
 * The clone's Creative Sets rows, and Creatives rows (file = creative_url) for the materials
 * the target account lacks; answers the New Offers row's sentence on them.
 */
function setsInto(writes: Writes, clone: Clone, name: string): string {
  const {source, target} = clone;
  if (!source.setsFrom) {
    return `its creative sets are to be filled in ${CREATIVE_SETS.name}: the API lists an offer's creatives only by creative-ad id (4.8), so list the offer's ad ids first (List creative ads) and clone again, or write them`;
  }
  const has = clone.has.get(target.account) ?? new Set<string>();
  const queued = clone.queued.get(target.account) ?? new Set<string>();
  clone.queued.set(target.account, queued);
  const missing: string[] = [];
  for (const set of source.sets) {
    const creatives = set.creatives.map(material => {
      if (!material.md5 || has.has(material.md5)) return material.ref;
      if (!material.url) {
        missing.push(material.ref);
        return material.ref;
      }
      if (!queued.has(material.url) && !queued.has(material.md5)) {
        const row = writes.creatives.append();
        writes.creatives.set(row, 'account', accountCell(target.account));
        writes.creatives.set(row, 'file', material.url);
        if (material.name)
          writes.creatives.set(row, 'creative_name', material.name);
        writes.creatives.status(
          row,
          'EDITED',
          `Material ${material.md5} of offer ${source.offer_id}, which account ${accountCell(target.account)} lacks: Create new offers uploads it from its creative_url.`,
        );
        queued.add(material.url);
      }
      return material.url;
    });
    const geos = set.geos.includes('ALL')
      ? ['ALL']
      : set.geos.filter(
          g => target.geos.includes(g) || target.geos[0] === 'ALL',
        );
    const row = writes.sets.append();
    writes.sets.set(row, 'account', accountCell(target.account));
    writes.sets.set(row, 'offer_name', name);
    writes.sets.set(row, 'creative_set_name', set.creative_set_name);
    writes.sets.set(
      row,
      'geos',
      (geos.length > 0 ? geos : target.geos).join(','),
    );
    writes.sets.set(row, 'ad_outputs', set.ad_outputs.join(','));
    writes.sets.set(row, 'creatives', creatives.join(','));
    writes.sets.status(
      row,
      'EDITED',
      `Cloned from offer ${source.offer_id}'s ${source.setsFrom} rows.`,
    );
  }
  const lacking =
    missing.length > 0
      ? `; account ${accountCell(target.account)} lacks ${listOf(missing).join(', ')}, whose file is not known: add ${missing.length === 1 ? 'it' : 'them'} to ${CREATIVES.name}`
      : '';
  return `creative sets from the source's ${source.setsFrom} rows${lacking}`;
}
