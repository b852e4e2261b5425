/**
 * Field readers shared by every operation: each reads one raw value, returns it parsed, or
 * records the failure in a FieldErrors under the field's name. Messages follow the Laravel
 * wording that the document's own 'The budget field is required.' comes from.
 */
import {validationError, type FieldMessages} from './envelope';

export type Params = Record<string, unknown>;

/** Field -> first failure message; the data of a 10000 answer. */
export class FieldErrors {
  private readonly messages: FieldMessages = {};

  add(field: string, message: string): undefined {
    if (!(field in this.messages)) this.messages[field] = message;
    return undefined;
  }

  has(field: string): boolean {
    return field in this.messages;
  }

  get empty(): boolean {
    return Object.keys(this.messages).length === 0;
  }

  throwIfAny(): void {
    if (!this.empty) throw validationError({...this.messages});
  }
}

export const message = {
  required: (f: string) => `The ${f} field is required.`,
  filled: (f: string) => `The ${f} field must have a value.`,
  requiredIf: (f: string, other: string, value: string) =>
    `The ${f} field is required when ${other} is ${value}.`,
  requiredWithout: (f: string, other: string) =>
    `The ${f} field is required when ${other} is not present.`,
  prohibited: (f: string, other: string, value: string) =>
    `The ${f} field is prohibited when ${other} is ${value}.`,
  string: (f: string) => `The ${f} must be a string.`,
  integer: (f: string) => `The ${f} must be an integer.`,
  number: (f: string) => `The ${f} must be a number.`,
  array: (f: string) => `The ${f} must be an array.`,
  object: (f: string) => `The ${f} must be an object.`,
  invalid: (f: string) => `The selected ${f} is invalid.`,
  format: (f: string) => `The ${f} format is invalid.`,
  unique: (f: string) => `The ${f} has already been taken.`,
  distinct: (f: string) => `The ${f} field has a duplicate value.`,
  lengthBetween: (f: string, min: number, max: number) =>
    `The ${f} must be between ${min} and ${max} characters.`,
  maxLength: (f: string, max: number) =>
    `The ${f} may not be greater than ${max} characters.`,
  between: (f: string, min: number, max: number) =>
    `The ${f} must be between ${min} and ${max}.`,
  min: (f: string, min: number) => `The ${f} must be at least ${min}.`,
  max: (f: string, max: number) => `The ${f} may not be greater than ${max}.`,
  greaterThan: (f: string, other: string | number) =>
    `The ${f} must be greater than ${other}.`,
  decimals: (f: string, places: number) =>
    `The ${f} may not have more than ${places} decimal places.`,
  maxItems: (f: string, max: number) =>
    `The ${f} may not have more than ${max} items.`,
};

/** Absent, null, '' and [] all count as "not sent", as in Laravel. */
export function isBlank(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    (Array.isArray(value) && value.length === 0)
  );
}

const NUMERIC = /^-?\d+(\.\d+)?$/;
const INTEGER = /^-?\d+$/;

/** Numbers arrive as JSON numbers or as numeric text (query strings, spreadsheet cells). */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number')
    return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && NUMERIC.test(value)) return Number(value);
  return undefined;
}

function toInteger(value: unknown): number | undefined {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) ? value : undefined;
  }
  if (typeof value === 'string' && INTEGER.test(value)) {
    const parsed = Number(value);
    return Number.isSafeInteger(parsed) ? parsed : undefined;
  }
  return undefined;
}

/** Decimal places of a number as sent: '1.50' has two, 1e-7 has seven. */
export function decimalPlaces(value: number | string): number {
  const text = typeof value === 'number' ? String(value) : value;
  const match = /^-?\d+(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(text);
  if (!match) return 0;
  return Math.max(0, (match[1]?.length ?? 0) - Number(match[2] ?? 0));
}

interface Presence {
  /** true, or the message to give instead of 'The x field is required.' */
  required?: boolean | string;
}

/** The answer for a blank value: an error if it was required, else "not sent". */
function blank(errors: FieldErrors, field: string, rule: Presence): undefined {
  if (!rule.required) return undefined;
  return errors.add(
    field,
    rule.required === true ? message.required(field) : rule.required,
  );
}

export interface StringRule extends Presence {
  /**
   * What '' means: 'absent' (the default, as in Laravel), 'keep' (a real value, e.g. clearing a
   * field; no other rule applies to it) or 'refuse' (sent but empty is an error).
   */
  empty?: 'absent' | 'keep' | 'refuse';
  pattern?: RegExp;
  length?: readonly [number, number];
  maxLength?: number;
  oneOf?: readonly string[];
}

export function readString(
  errors: FieldErrors,
  field: string,
  value: unknown,
  rule: StringRule = {},
): string | undefined {
  if (value === '' && rule.empty === 'keep') return '';
  if (value === '' && rule.empty === 'refuse') {
    return errors.add(field, message.filled(field));
  }
  if (isBlank(value)) return blank(errors, field, rule);
  if (typeof value !== 'string')
    return errors.add(field, message.string(field));
  if (rule.oneOf && !rule.oneOf.includes(value)) {
    return errors.add(field, message.invalid(field));
  }
  if (rule.length) {
    const [min, max] = rule.length;
    if (value.length < min || value.length > max) {
      return errors.add(field, message.lengthBetween(field, min, max));
    }
  }
  if (rule.maxLength !== undefined && value.length > rule.maxLength) {
    return errors.add(field, message.maxLength(field, rule.maxLength));
  }
  if (rule.pattern && !rule.pattern.test(value)) {
    return errors.add(field, message.format(field));
  }
  return value;
}

export interface NumberRule extends Presence {
  min?: number;
  max?: number;
  /** Exclusive lower bound. */
  greaterThan?: number;
  decimals?: number;
}

function checkRange(
  errors: FieldErrors,
  field: string,
  value: number,
  rule: NumberRule,
): number | undefined {
  if (rule.greaterThan !== undefined && value <= rule.greaterThan) {
    return errors.add(field, message.greaterThan(field, rule.greaterThan));
  }
  const {min, max} = rule;
  const outside =
    (min !== undefined && value < min) || (max !== undefined && value > max);
  if (!outside) return value;
  if (min !== undefined && max !== undefined) {
    return errors.add(field, message.between(field, min, max));
  }
  return errors.add(
    field,
    min !== undefined ? message.min(field, min) : message.max(field, max!),
  );
}

export function readInteger(
  errors: FieldErrors,
  field: string,
  value: unknown,
  rule: NumberRule = {},
): number | undefined {
  if (isBlank(value)) return blank(errors, field, rule);
  const parsed = toInteger(value);
  if (parsed === undefined) return errors.add(field, message.integer(field));
  return checkRange(errors, field, parsed, rule);
}

export function readDecimal(
  errors: FieldErrors,
  field: string,
  value: unknown,
  rule: NumberRule = {},
): number | undefined {
  if (isBlank(value)) return blank(errors, field, rule);
  const parsed = toNumber(value);
  if (parsed === undefined) return errors.add(field, message.number(field));
  if (
    rule.decimals !== undefined &&
    decimalPlaces(value as number | string) > rule.decimals
  ) {
    return errors.add(field, message.decimals(field, rule.decimals));
  }
  return checkRange(errors, field, parsed, rule);
}

export function readArray(
  errors: FieldErrors,
  field: string,
  value: unknown,
  rule: Presence = {},
): unknown[] | undefined {
  if (isBlank(value)) return blank(errors, field, rule);
  return Array.isArray(value) ? value : errors.add(field, message.array(field));
}

export function isPlainObject(value: unknown): value is Params {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface ListRule extends Presence {
  /** Every item must pass this test, else the field's format is invalid. */
  item?: (item: string) => boolean;
  maxItems?: number;
  distinct?: boolean;
}

/**
 * A comma-separated list sent as text ('US,GB'); a lone number counts as a one-item list. Items
 * are taken as written: spaces and empty items fail the item test.
 */
export function readCommaList(
  errors: FieldErrors,
  field: string,
  value: unknown,
  rule: ListRule = {},
): string[] | undefined {
  if (isBlank(value)) return blank(errors, field, rule);
  if (typeof value !== 'string' && typeof value !== 'number') {
    return errors.add(field, message.string(field));
  }
  const items = String(value).split(',');
  if (rule.item && !items.every(rule.item)) {
    return errors.add(field, message.format(field));
  }
  if (rule.maxItems !== undefined && items.length > rule.maxItems) {
    return errors.add(field, message.maxItems(field, rule.maxItems));
  }
  if (rule.distinct && new Set(items).size !== items.length) {
    return errors.add(field, message.distinct(field));
  }
  return items;
}

const isIdText = (item: string) => /^[1-9]\d{0,14}$/.test(item);

/** Comma-separated ids ('12,13'), as a set. */
export function readIdSet(
  errors: FieldErrors,
  field: string,
  value: unknown,
  maxItems?: number,
): Set<number> | undefined {
  const ids = readCommaList(errors, field, value, {item: isIdText, maxItems});
  return ids && new Set(ids.map(Number));
}
