import {ApiError} from './errors';

const MD5 = /[0-9a-f]{32}/i;

/**
 * The material an `already existed` upload answer names (API part 1, rule 3). Where in the
 * body the API puts fmd5 and name is not shown, so both are looked for in the details and
 * then in the text: `fmd5: <md5>`, `fmd5=<md5>`, `"fmd5":"<md5>"`, and likewise the name.
 */
export function parseAlreadyExisted(
  error: ApiError,
): {creative_md5: string; creative_name: string} | undefined {
  const text = [
    error.msg,
    ...Object.entries(error.details).map(([k, v]) => `${k}: ${v}`),
  ].join(' ; ');
  if (!/already existed/i.test(text)) return undefined;
  const md5 =
    pick(error.details, ['fmd5', 'creative_md5', 'md5'])?.match(MD5)?.[0] ??
    text.match(/fmd5["']?\s*[:=]\s*["']?([0-9a-f]{32})/i)?.[1] ??
    text.match(MD5)?.[0];
  if (!md5) return undefined;
  const name =
    pick(error.details, ['name', 'creative_name', 'fname']) ??
    text.match(
      /(?:creative_|f)?name["']?\s*[:=]\s*["']?([^"',;\]}\s]+)/i,
    )?.[1] ??
    '';
  return {creative_md5: md5.toLowerCase(), creative_name: name};
}

function pick(
  details: Record<string, string>,
  keys: string[],
): string | undefined {
  for (const key of keys) {
    const value = details[key];
    if (value) return value;
  }
  return undefined;
}
