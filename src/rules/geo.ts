import {excerpt, parseList} from './values';

export type GeoList = {geos: string[]} | {problem: string};

/**
 * 'ALL' or comma-separated geo codes (target_geo of 4.2, geos of 2.4). The document does not
 * list the codes; every code it and its examples use is a two-letter country code, so that is
 * the form checked. Lowercase is accepted and sent uppercase. A blank cell is the caller's
 * matter (required or not).
 */
export function readGeoList(value: unknown): GeoList {
  const items = parseList(value).map(item => item.toUpperCase());
  if (items.includes('ALL')) {
    return items.length === 1
      ? {geos: ['ALL']}
      : {problem: 'must be ALL alone or geo codes, not both'};
  }
  if (items.includes('')) {
    return {problem: 'has an empty item between commas'};
  }
  const bad = items.find(item => !/^[A-Z]{2}$/.test(item));
  if (bad !== undefined) {
    return {
      problem: `has ${excerpt(bad)}, which is not a two-letter country code: write ALL or codes such as US,GB`,
    };
  }
  const twice = items.find((item, i) => items.indexOf(item) !== i);
  if (twice !== undefined)
    return {problem: `lists ${excerpt(twice, false)} twice`};
  return {geos: items};
}
