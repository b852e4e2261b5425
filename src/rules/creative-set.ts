/**
 * Creative sets of a new offer (2.4), one Creative Sets row each, and the resolution of their
 * `creatives` (material names or md5s) through the Creatives sheet. The document shows no
 * constraint on the sub-fields beyond their types, so only types and presence are checked, and
 * that no cell is longer than the longest text the API takes (values.ts LONGEST_TEXT).
 */
import {readGeoList} from './geo';
import type {FieldMessages} from './maintain';
import type {Cells} from './offer';
import {
  excerpt,
  isBlank,
  lengthProblem,
  parseInteger,
  parseList,
  textOf,
} from './values';

const MD5 = /^[0-9a-f]{32}$/i;

export interface CreativeSetDraft {
  creative_set_name: string;
  geos: string[];
  ad_outputs: number[];
  /** As typed: material names or md5s. */
  creatives: string[];
}

export function checkCreativeSet(cells: Cells): {
  problems: FieldMessages;
  draft?: CreativeSetDraft;
} {
  const problems: FieldMessages = {};
  const name = textOf(cells.creative_set_name);
  if (name === '') problems.creative_set_name = 'creative_set_name is required';
  else {
    const tooLong = lengthProblem('creative_set_name', name);
    if (tooLong) problems.creative_set_name = tooLong;
  }

  let geos: string[] = [];
  const read = readGeoList(cells.geos);
  if (isBlank(cells.geos)) {
    problems.geos = 'geos is required: ALL or geo codes such as US,GB';
  } else if ('problem' in read) {
    problems.geos = `geos ${read.problem}`;
  } else {
    geos = read.geos;
  }

  const outputs = parseList(cells.ad_outputs);
  const codes = outputs.map(parseInteger);
  const bad = outputs.find((_, i) => codes[i] === undefined);
  if (outputs.length === 0) {
    problems.ad_outputs =
      'ad_outputs is required: creative output codes such as 111,121';
  } else if (bad !== undefined) {
    problems.ad_outputs = `ad_outputs must be whole numbers separated by commas (got ${excerpt(bad)})`;
  }

  const creatives = parseList(cells.creatives);
  if (creatives.length === 0) {
    problems.creatives =
      'creatives is required: at least one material name or md5 from the Creatives sheet';
  } else if (creatives.includes('')) {
    problems.creatives = 'creatives has an empty item between commas';
  }

  if (Object.keys(problems).length > 0) return {problems};
  return {
    problems,
    draft: {
      creative_set_name: name,
      geos,
      ad_outputs: codes as number[],
      creatives: [...new Set(creatives)],
    },
  };
}

/** A Creatives row as the resolution sees it. */
export interface MaterialRow {
  /** 1-based sheet row. */
  row: number;
  file: string;
  creative_md5: string;
  creative_name: string;
}

export type Resolution =
  {ok: true; material: MaterialRow} | {ok: false; problem: string};

/**
 * Finds the Creatives row an item names: by creative_md5, by creative_name, or by its `file`
 * cell (a material not uploaded yet has no md5, and its name may not be known before upload).
 * An item that names rows of different materials is refused: only its md5 says which.
 */
export function resolveCreative(
  item: string,
  rows: readonly MaterialRow[],
): Resolution {
  const byMd5 = MD5.test(item)
    ? rows.filter(r => r.creative_md5.toLowerCase() === item.toLowerCase())
    : [];
  const matches = byMd5.length
    ? byMd5
    : rows.filter(r => r.creative_name === item || r.file === item);
  if (matches.length === 0) {
    return {
      ok: false,
      problem: `creatives names ${excerpt(item)}, which is not in the Creatives sheet (as creative_md5, creative_name or file): add it there, or refresh the creative materials`,
    };
  }
  const distinct = new Set(
    matches.map(m =>
      m.creative_md5 ? m.creative_md5.toLowerCase() : `row ${m.row}`,
    ),
  );
  if (distinct.size > 1) {
    return {
      ok: false,
      problem: `creatives names ${excerpt(item)}, which matches Creatives rows ${matches.map(m => m.row).join(', ')}: name the material by its creative_md5`,
    };
  }
  return {ok: true, material: matches[0]};
}
