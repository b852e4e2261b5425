import {isPlainObject} from './http-request';

/**
 * What crosses between the sidebar and the server through google.script.run: primitives,
 * arrays and plain objects, copied. Dates, functions and other objects are illegal (an
 * argument fails the call; a result holding one reaches the client as null, which we refuse
 * outright so the bug shows here); undefined inside an array becomes null, inside an object it
 * is dropped.
 */
export function copyForClient(
  value: unknown,
  make: {array(items: unknown[]): unknown[]; object(props: object): object},
  illegal: (path: string, what: string) => never,
  path = '',
  seen = new Set<object>(),
): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean')
    return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value === undefined) return null;
  if (typeof value !== 'object') return illegal(path, typeof value);
  if (seen.has(value)) return illegal(path, 'a circular reference');
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      return make.array(
        value.map((v, i) =>
          copyForClient(v, make, illegal, join(path, String(i)), seen),
        ),
      );
    }
    if (!isPlainObject(value)) {
      return illegal(path, Object.prototype.toString.call(value).slice(8, -1));
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (v !== undefined)
        out[k] = copyForClient(v, make, illegal, join(path, k), seen);
    }
    return make.object(out);
  } finally {
    seen.delete(value);
  }
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}
