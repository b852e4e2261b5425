/** Rules of creative_sets in an offer creation (2.4; their limits are not shown: see README). */
import {
  FieldErrors,
  isPlainObject,
  message,
  readArray,
  readInteger,
  readString,
} from '../checks';
import {AD_OUTPUTS, GEO_CODES} from '../enums';
import type {Account, CreativeRef} from '../model';

export interface CreativeSetDraft {
  creative_set_name: string;
  geos: string[];
  ad_outputs: number[];
  creatives: CreativeRef[];
}

const MD5 = /^[0-9a-f]{32}$/;

/**
 * `offerGeos` are the offer's delivery geos (['ALL'] for all): a set's geos are 'ALL' or some
 * of them. Every creative must be a material of the acting account.
 */
export function readCreativeSets(
  errors: FieldErrors,
  account: Account,
  value: unknown,
  offerGeos: readonly string[] | undefined,
): CreativeSetDraft[] | undefined {
  const sets = readArray(errors, 'creative_sets', value, {required: true});
  if (!sets) return undefined;
  const drafts = sets.map((set, i) =>
    readCreativeSet(errors, account, set, `creative_sets.${i}`, offerGeos),
  );
  const names = sets.map(set =>
    isPlainObject(set) && typeof set.creative_set_name === 'string'
      ? set.creative_set_name
      : undefined,
  );
  names.forEach((name, i) => {
    if (name !== undefined && names.indexOf(name) !== i) {
      const field = `creative_sets.${i}.creative_set_name`;
      errors.add(field, message.distinct(field));
    }
  });
  return drafts.every(draft => draft !== undefined)
    ? (drafts as CreativeSetDraft[])
    : undefined;
}

function readCreativeSet(
  errors: FieldErrors,
  account: Account,
  value: unknown,
  path: string,
  offerGeos: readonly string[] | undefined,
): CreativeSetDraft | undefined {
  if (!isPlainObject(value)) return errors.add(path, message.object(path));
  const name = readString(
    errors,
    `${path}.creative_set_name`,
    value.creative_set_name,
    {required: true, maxLength: 100},
  );
  const geos = readEach(errors, `${path}.geos`, value.geos, (item, field) =>
    isSetGeo(item, offerGeos)
      ? (item as string)
      : errors.add(field, message.invalid(field)),
  );
  if (geos && geos.includes('ALL') && geos.length > 1) {
    errors.add(`${path}.geos`, message.format(`${path}.geos`));
  }
  const outputs = readEach(
    errors,
    `${path}.ad_outputs`,
    value.ad_outputs,
    (item, field) => {
      const code = readInteger(errors, field, item, {required: true});
      if (code === undefined) return undefined;
      return AD_OUTPUTS.includes(code)
        ? code
        : errors.add(field, message.invalid(field));
    },
  );
  const creatives = readEach(
    errors,
    `${path}.creatives`,
    value.creatives,
    (item, field) => readCreative(errors, account, item, field),
  );
  if (!name || !geos || !outputs || !creatives) return undefined;
  return {
    creative_set_name: name,
    geos,
    ad_outputs: outputs,
    creatives,
  };
}

function readCreative(
  errors: FieldErrors,
  account: Account,
  value: unknown,
  path: string,
): CreativeRef | undefined {
  if (!isPlainObject(value)) return errors.add(path, message.object(path));
  const name = readString(
    errors,
    `${path}.creative_name`,
    value.creative_name,
    {
      required: true,
    },
  );
  const md5Field = `${path}.creative_md5`;
  const md5 = readString(errors, md5Field, value.creative_md5, {
    required: true,
  });
  if (md5 !== undefined && (!MD5.test(md5) || !account.materials.has(md5))) {
    return errors.add(md5Field, message.invalid(md5Field));
  }
  return name === undefined || md5 === undefined
    ? undefined
    : {creative_name: name, creative_md5: md5};
}

function isSetGeo(item: unknown, offerGeos: readonly string[] | undefined) {
  if (typeof item !== 'string') return false;
  if (item === 'ALL') return true;
  if (!offerGeos || offerGeos[0] === 'ALL') return GEO_CODES.has(item);
  return offerGeos.includes(item);
}

/** A required, non-empty array whose every item passes `read`. */
function readEach<T>(
  errors: FieldErrors,
  field: string,
  value: unknown,
  read: (item: unknown, itemField: string) => T | undefined,
): T[] | undefined {
  const items = readArray(errors, field, value, {required: true});
  if (!items) return undefined;
  const parsed = items.map((item, i) => read(item, `${field}.${i}`));
  return parsed.every(item => item !== undefined) ? (parsed as T[]) : undefined;
}
