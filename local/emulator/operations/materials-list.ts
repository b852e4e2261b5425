/** GET /api/open/v3/creatives/source (4.9). */
import {FieldErrors, readCommaList, readString} from '../checks';
import {CREATIVE_TYPES} from '../enums';
import {pageOf, readPaging} from '../listing';
import type {Material} from '../model';
import {presentMaterial} from '../present';
import type {OperationContext} from './context';

/** creative_name matches exactly (it is a name, not a search); the rest are lists. */
export function listMaterials({account, params}: OperationContext) {
  const errors = new FieldErrors();
  const md5s = readCommaList(errors, 'creative_md5', params.creative_md5, {
    item: item => /^[0-9a-f]{32}$/.test(item),
    maxItems: 200,
  });
  const name = readString(errors, 'creative_name', params.creative_name, {
    pattern: /^[A-Za-z0-9_]+$/,
  });
  const type = readString(errors, 'creative_type', params.creative_type, {
    oneOf: CREATIVE_TYPES,
  });
  const resolutions = readCommaList(errors, 'resolution', params.resolution, {
    item: item => /^\d+x\d+$/.test(item),
    maxItems: 200,
  });
  const paging = readPaging(errors, params, {
    defaultLimit: 200,
    maxLimit: 200,
    clamp: true,
  });
  errors.throwIfAny();
  const matches = (material: Material) =>
    (!md5s || md5s.includes(material.creative_md5)) &&
    (name === undefined || material.creative_name === name) &&
    (type === undefined || material.creative_type === type) &&
    (!resolutions || resolutions.includes(material.resolution));
  return pageOf(account.materials, paging, presentMaterial, matches);
}
