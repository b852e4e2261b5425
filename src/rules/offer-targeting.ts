/**
 * The targeting rules of 4.2: target_geo, os_version_min/max, network and target_device.
 */
import {readGeoList} from './geo';
import {Check, OfferBody} from './offer-check';
import {excerpt, parseList} from './values';

export const TARGET_DEVICES = ['PHONE', 'TABLET'] as const;

/**
 * 4.2: "one digit followed by up to two groups of a dot and one digit"; its own no-maximum
 * value 99.0.0 has two digits in a group, so a group is one or two digits (14.5, 10, 12.0.0),
 * and three (1.100) are refused, as the local emulator reads it (its README, assumption 39).
 */
const OS_VERSION = /^\d{1,2}(\.\d{1,2}){0,2}$/;

/** target_geo: 'ALL' or two-letter country codes. */
export function targetGeo(c: Check, body: Partial<OfferBody>): void {
  const geo = c.present('target_geo');
  if (geo !== undefined) {
    const read = readGeoList(geo);
    if ('problem' in read) c.fail('target_geo', read.problem);
    else body.target_geo = read.geos.join(',');
  }
}

/** os_version_min and os_version_max, each optional, into the body. */
export function osVersions(c: Check, body: Partial<OfferBody>): void {
  const form =
    'must be a number of one or two digits, then up to two groups of a dot and one or two digits (9, 14.5 or 12.0.1)';
  const limits = {
    os_version_min: '0.0.0 means no minimum',
    os_version_max: '99.0.0 means no maximum',
  } as const;
  for (const field of ['os_version_min', 'os_version_max'] as const) {
    if (c.blank(field)) continue;
    const version = c.text(field);
    if (OS_VERSION.test(version)) body[field] = version;
    else c.fail(field, `${form}; ${limits[field]} (got ${excerpt(version)})`);
  }
}

/** network and target_device: comma-separated lists. */
export function devices(c: Check, body: Partial<OfferBody>): void {
  if (!c.blank('network')) {
    const network = c.words('network', 'network types');
    if (network !== undefined) body.network = network;
  }

  if (!c.blank('target_device')) {
    const items = parseList(c.cells.target_device).map(d => d.toUpperCase());
    const allowed: readonly string[] = TARGET_DEVICES;
    const bad = items.find(d => !allowed.includes(d));
    if (bad !== undefined) {
      c.fail(
        'target_device',
        `must be PHONE, TABLET or PHONE,TABLET (got ${excerpt(bad)})`,
      );
    } else body.target_device = [...new Set(items)].join(',');
  }
}
