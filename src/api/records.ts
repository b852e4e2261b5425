/**
 * List records read in the API document's names. The vendor's public clients read an offer's
 * geos, and those of its budget items, as `country_code` where 2.3 says `target_geo`, and
 * `campaign_id` as a number or a string; a listed support_server_click may be a boolean, and
 * start_time and end_time may count milliseconds: a server that answers so is read as if it
 * had answered as documented. An alias counts only where the documented field is absent, and
 * requests always carry the documented names (docs/architecture.md, assumptions).
 */
type Fields = Record<string, unknown>;

const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `target_geo` from `country_code` when the record has no `target_geo`, in its place: the
 * offer's JSON columns show the fields in the order they came.
 */
function withTargetGeo(record: Fields): Fields {
  if (record.target_geo !== undefined || record.country_code === undefined)
    return record;
  return Object.fromEntries(
    Object.entries(record).map(([field, value]) => [
      field === 'country_code' ? 'target_geo' : field,
      value,
    ]),
  );
}

/** A campaign_id given as text of digits is the number it spells. */
function withNumericCampaignId(record: Fields): Fields {
  const id = record.campaign_id;
  if (typeof id !== 'string' || !/^\s*\d+\s*$/.test(id)) return record;
  return {...record, campaign_id: Number(id)};
}

const YES = /^(yes|true|1)$/i;
const NO = /^(no|false|0)$/i;

/**
 * support_server_click told as a boolean or 0/1 (2.8: "whether server-side click is
 * supported", its quoted value 'NO') is the YES or NO it means, so a push does not refuse a
 * value the user never typed; any other value stays as it came.
 */
function withServerClickText(record: Fields): Fields {
  const flag = record.support_server_click;
  if (
    typeof flag !== 'boolean' &&
    typeof flag !== 'number' &&
    typeof flag !== 'string'
  )
    return record;
  const text = String(flag).trim();
  const meant = YES.test(text) ? 'YES' : NO.test(text) ? 'NO' : undefined;
  return meant === undefined || meant === flag
    ? record
    : {...record, support_server_click: meant};
}

/** From 10^12 on, a Unix time counts milliseconds: in seconds it would be past the year 33,000. */
const FIRST_MS = 1e12;

/**
 * start_time and end_time given in Unix milliseconds (2.3 says "timestamp", its unit not
 * stated; 4.2 takes seconds) are read as the seconds they mean, in the type they came in.
 */
function withSecondTimes(record: Fields): Fields {
  const times: Fields = {};
  for (const field of ['start_time', 'end_time']) {
    const value = record[field];
    const text = typeof value === 'string' ? value.trim() : '';
    if (
      typeof value === 'number' &&
      Number.isInteger(value) &&
      value >= FIRST_MS
    )
      times[field] = Math.floor(value / 1000);
    else if (/^\d+$/.test(text) && Number(text) >= FIRST_MS)
      times[field] = String(Math.floor(Number(text) / 1000));
  }
  return Object.keys(times).length ? {...record, ...times} : record;
}

/** An offer of the offers list (2.3), its budget items included. */
export function readOffer(raw: unknown): unknown {
  if (!isFields(raw)) return raw;
  const offer = withSecondTimes(
    withServerClickText(withNumericCampaignId(withTargetGeo(raw))),
  );
  if (!Array.isArray(offer.budget)) return offer;
  return {
    ...offer,
    budget: offer.budget.map(item =>
      isFields(item) ? withTargetGeo(item) : item,
    ),
  };
}

/** A campaign of the campaign list (2.2). */
export function readCampaign(raw: unknown): unknown {
  return isFields(raw) ? withNumericCampaignId(raw) : raw;
}
