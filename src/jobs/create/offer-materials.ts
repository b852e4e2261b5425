/**
 * Step 1 of the chain for the rows about to be created: the materials they use that have no
 * md5 yet are uploaded (upload-rows.ts uploadRows), and each row goes on only when all its
 * materials are on the server, its request naming each by creative_name and creative_md5.
 */
import type {CreateOfferRequest} from '../../api/types';
import {excerpt} from '../../rules/values';
import {ACCOUNT} from '../../sheets/accounts';
import {UploadReport, outOf} from './upload-context';
import {uploadChanges, uploadRows} from './upload-rows';
import type {MaterialVerdict} from './upload-verdicts';
import type {CreateRun} from './context';
import type {OfferPlan} from './new-offer-plan';
import {materialIndex} from './new-offer-sets';
import {NOT_SENT, later} from './offer-outcomes';

/** A row whose materials are all on the server, and the create that sends it. */
export interface Ready {
  plan: OfferPlan;
  request: CreateOfferRequest;
}

/**
 * Uploads the materials these rows use that have no md5 yet, then answers the rows whose
 * materials are all on the server, with their requests.
 */
export function withMaterials(
  run: CreateRun,
  candidates: OfferPlan[],
): Ready[] {
  const {pending, sendable} = uploadAccounts(run, candidates);
  const upload = uploadRows(
    {
      clientFor: run.clientFor,
      files: run.job.platform.files,
      digest: run.job.platform.digest,
      writes: run.creatives,
      sending: () => run.job.saveState(),
      budget: run.job.budget,
      owner: {
        accountOf: index => pending.get(index)!,
        book: run.job.book,
        context: run.job.workbook,
      },
      out: outOf(run.job),
    },
    [...pending.keys()].sort((a, b) => a - b),
  );
  run.counts.requests += upload.requests;
  run.job.log.add(uploadChanges(run.creatives.table, upload));
  run.job.save();
  const late = new Set(upload.remaining);
  const ready: Ready[] = [];
  for (const c of sendable) {
    const request = requestOf(run, c, upload, late);
    if (request) ready.push({plan: c, request});
  }
  return ready;
}

/**
 * The account each material to upload goes to: that of the offers that use it (a creative set
 * names only its own account's materials, or rows of no account yet: new-offer-sets.ts). A
 * material of no account that offers of two accounts use is not guessed at: those offers are
 * INVALID, and the rest go on.
 */
function uploadAccounts(
  run: CreateRun,
  candidates: OfferPlan[],
): {pending: Map<number, string>; sendable: OfferPlan[]} {
  const uses = (c: OfferPlan) =>
    c.sets.flatMap(set =>
      set.materials.flatMap(({material}) =>
        material.creative_md5 ? [] : [material],
      ),
    );
  const accounts = new Map<number, Set<string>>();
  for (const c of candidates) {
    for (const material of uses(c)) {
      const at = materialIndex(material);
      accounts.set(at, (accounts.get(at) ?? new Set()).add(c.account!));
    }
  }
  const pending = new Map<number, string>();
  const sendable = candidates.filter(c => {
    const shared = uses(c).filter(
      m => accounts.get(materialIndex(m))!.size > 1,
    );
    if (shared.length === 0) {
      for (const m of uses(c)) pending.set(materialIndex(m), c.account!);
      return true;
    }
    const rows = [...new Set(shared.map(m => m.row))].join(', ');
    run.offers.status(
      c.index,
      'INVALID',
      `creatives: the file of Creatives row ${rows} is to be uploaded for offers of several accounts: write in its ${ACCOUNT} cell which account it is uploaded to (another account's offer needs a row of its own). ${NOT_SENT}`,
    );
    return false;
  });
  return {pending, sendable};
}

/**
 * The row's create, its materials as the upload left them; undefined when a material is
 * still to upload (`late`: the row is left for later) or could not be (the row says which).
 */
function requestOf(
  run: CreateRun,
  c: OfferPlan,
  upload: UploadReport,
  late: ReadonlySet<number>,
): CreateOfferRequest | undefined {
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
      return {creative_name: on.creative_name, creative_md5: on.creative_md5};
    }),
  }));
  if (waiting) {
    later(run, c);
  } else if (problems.length > 0) {
    run.offers.status(
      c.index,
      status,
      `${[...new Set(problems)].join('; ')}. ${NOT_SENT}`,
    );
  } else {
    return {...c.body!, creative_sets: creativeSets};
  }
  return undefined;
}
