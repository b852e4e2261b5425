/** An Apps Script enum value: compared by identity, printed by name. */
export interface EnumValue {
  name(): string;
  ordinal(): number;
  toString(): string;
  toJSON(): string;
}

/** Builds an enum object such as `ScriptApp.AuthMode` from its member names. */
export function makeEnum<K extends string>(
  names: readonly K[],
): Readonly<Record<K, EnumValue>> {
  const members = {} as Record<K, EnumValue>;
  names.forEach((name, index) => {
    members[name] = Object.freeze({
      name: () => name,
      ordinal: () => index,
      toString: () => name,
      toJSON: () => name,
    });
  });
  return Object.freeze(members);
}

/** The member's name if `value` is one of `members`, else undefined. */
export function enumName<K extends string>(
  members: Readonly<Record<K, EnumValue>>,
  value: unknown,
): K | undefined {
  return (Object.keys(members) as K[]).find(k => members[k] === value);
}
