/**
 * Step 1 of the chain for the rows about to be created: the materials they use that have no
 * md5 yet are uploaded (upload-creatives.ts uploadRows), and each row goes on only when all its
 * materials are on the server, its request naming each by creative_name and creative_md5.
 */
import type {CreateOfferRequest} from '../../api/types';
import {excerpt} from '../../rules/values';
import {
  MaterialVerdict,
  UploadReport,
  uploadChanges,
  uploadRows,
} from './upload-creatives';
import type {CreateRun} from './context';
import {OfferPlan, materialIndex} from './new-offer-rows';
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
      client: run.client,
      files: run.job.platform.files,
      digest: run.job.platform.digest,
      writes: run.creatives,
      sending: () => run.job.saveState(),
      budget: run.job.budget,
      owner: {
        account: run.job.connected.account,
        book: run.job.book,
        context: run.job.workbook,
      },
    },
    [...pending].sort((a, b) => a - b),
  );
  run.counts.requests += upload.requests;
  run.job.log.add(uploadChanges(run.creatives.table, upload));
  run.job.save();
  const late = new Set(upload.remaining);
  const ready: Ready[] = [];
  for (const c of candidates) {
    const request = requestOf(run, c, upload, late);
    if (request) ready.push({plan: c, request});
  }
  return ready;
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
