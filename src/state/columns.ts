/**
 * How a section's records are stored since version 4 of the state book (book.ts): by column,
 * not as one object per record. Version 3 repeated every key (`"rows"`, `"facts"`,
 * `"maintain_by"`...) in every record and quoted every text twice (a canonical text is JSON
 * itself), so the hidden sheet took about as many characters as the sheets it remembers
 * (issue 37). Here each column is one value:
 *
 * - a column of few distinct texts (an enumeration, maintain_by, a status) is a dictionary and
 *   one fixed-width number per record: `{d: [texts], i: 'digits'}`, no digit at all when the
 *   whole column holds one text;
 * - any other column is one string: each text told by how many characters it shares with the
 *   text before it and the rest (front coding; ids, click URLs and names of one account start
 *   alike), so no text is repeated and no quote is escaped per entry.
 *
 * Nothing is digested or left out: every text reads back exactly as it was stored (History's
 * before values, a budget guard's, a revert's and a push's are the state's own texts).
 */
import type {RecordState} from '../sheets/pulled';

const DIGITS =
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Each digit's value by its character's code; -1 where the character is no digit. */
const VALUE = Int8Array.from({length: 128}, (_, code) =>
  DIGITS.indexOf(String.fromCharCode(code)),
);

/** The value of the digit at `at` in `text`; -1 for no digit (past the end included). */
function digitAt(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code < VALUE.length ? VALUE[code] : -1;
}
/** A digit from this value on carries 5 bits and another digit follows (a varint). */
const MORE = 32;

/** A column as stored: a dictionary and a number per entry, or front-coded texts. */
export type Column = string | {d: Array<string | null>; i: string};

/** The rare marks of a record, kept as they are under its position. */
type Marks = Pick<RecordState, 'refused' | 'unknown' | 'writing' | 'toldFacts'>;

const MARKS = ['refused', 'unknown', 'writing', 'toldFacts'] as const;

/**
 * The marks `of` holds, and nothing else: a stored record's marks never stand in for its rows,
 * facts or print.
 */
function marksOf(of: Partial<Marks> | undefined): Marks {
  return Object.fromEntries(
    MARKS.flatMap(f => (of?.[f] !== undefined ? [[f, of[f]]] : [])),
  );
}

/** A section's records by column. */
export interface StoredRecords {
  /** How many records. */
  n: number;
  /** Each record's key (accounts.ts recordKey: its account and id; front coding keeps one). */
  keys: Column;
  /** How many rows each record has (decimal texts). */
  rows: Column;
  /** One column per position of the row texts, every row of every record in order. */
  cells: Column[];
  /** One column per fact name, null where a record has no such fact. */
  facts: Record<string, Column>;
  /** The prints of the read-only cells, null where none: by position, or as one column. */
  readOnly: Prints | Column;
  /** By position, the records' marks of a push or a stopped refresh. */
  marks?: Record<string, Marks>;
}

function varint(n: number): string {
  if (n < MORE) return DIGITS[n];
  let out = '';
  while (n >= MORE) {
    out += DIGITS[MORE + (n % MORE)];
    n = Math.floor(n / MORE);
  }
  return out + DIGITS[n];
}

/** Reads texts back from a string of entries, each its digits then its characters. */
class Reader {
  constructor(
    private readonly text: string,
    private at: number,
  ) {}

  number(): number {
    let n = 0;
    let scale = 1;
    for (;;) {
      const d = digitAt(this.text, this.at++);
      if (d < 0) throw new Error('state column: not a number');
      if (d < MORE) return n + d * scale;
      n += (d - MORE) * scale;
      scale *= MORE;
    }
  }

  /** Throws unless every entry was read: a column of more entries than its records. */
  end(): void {
    if (this.at !== this.text.length)
      throw new Error('state column: more entries than records');
  }

  chars(length: number): string {
    if (this.at + length > this.text.length)
      throw new Error('state column: cut short');
    const out = this.text.slice(this.at, this.at + length);
    this.at += length;
    return out;
  }
}

/** How many characters `a` and `b` start with alike, never ending inside a surrogate pair. */
function sharedStart(a: string, b: string): number {
  const most = Math.min(a.length, b.length);
  let k = 0;
  while (k < most && a.charCodeAt(k) === b.charCodeAt(k)) k++;
  if (k > 0 && (a.charCodeAt(k - 1) & 0xfc00) === 0xd800) k--;
  return k;
}

/**
 * How many characters `a` and `b` end with alike, at most `most`, never starting inside a
 * surrogate pair.
 */
function sharedEnd(a: string, b: string, most: number): number {
  let k = 0;
  while (
    k < most &&
    a.charCodeAt(a.length - 1 - k) === b.charCodeAt(b.length - 1 - k)
  )
    k++;
  if (k > 0 && (b.charCodeAt(b.length - k) & 0xfc00) === 0xdc00) k--;
  return k;
}

/** Front coding alone, or with the end shared too (a click URL's macros). */
const FRONT = 'F';
const BOTH = 'B';

/**
 * Each entry: its length plus one (0: none), what it shares with the start of the entry
 * before that is not none (and with its end, the second text), and its other characters:
 * both codings in one pass over the texts.
 */
function frontCoded(values: ReadonlyArray<string | null>): [string, string] {
  const front: string[] = [FRONT];
  const both: string[] = [BOTH];
  let last = '';
  for (const value of values) {
    if (value === null) {
      front.push(DIGITS[0]);
      both.push(DIGITS[0]);
      continue;
    }
    const start = sharedStart(last, value);
    const end = sharedEnd(
      last,
      value,
      Math.min(last.length, value.length) - start,
    );
    const head = varint(value.length + 1) + varint(start);
    front.push(head, value.slice(start));
    both.push(head, varint(end), value.slice(start, value.length - end));
    last = value;
  }
  return [front.join(''), both.join('')];
}

/**
 * Fewer characters than this are copied where a string is sliced; more make a slice that keeps
 * the whole string it was cut from (V8's SlicedString::kMinLength).
 */
const SLICED = 13;

/**
 * `pieces` as one flat string of its own. `+` would make a rope of slices, and a text of a
 * section held for a job would keep the text before it and the whole column's string alive;
 * joined, pieces are copied, except a text join finds alone (the others empty), which it hands
 * back as it is.
 */
function flat(pieces: string[]): string {
  const whole = pieces.join('');
  if (whole.length < SLICED || !pieces.includes(whole)) return whole;
  return [whole.slice(0, 1), whole.slice(1)].join('');
}

function fromFrontCoded(text: string, n: number): Array<string | null> {
  const both = text[0] === BOTH;
  if (!both && text[0] !== FRONT) throw new Error('state column: no mode');
  const read = new Reader(text, 1);
  const out: Array<string | null> = [];
  let last = '';
  for (let k = 0; k < n; k++) {
    const length = read.number() - 1;
    if (length < 0) {
      out.push(null);
      continue;
    }
    const start = read.number();
    const end = both ? read.number() : 0;
    if (start + end > length || start + end > last.length)
      throw new Error('state column: shares more than it has');
    last = flat([
      last.slice(0, start),
      read.chars(length - start - end),
      last.slice(last.length - end),
    ]);
    out.push(last);
  }
  read.end();
  return out;
}

/** Bits a dictionary of `size` entries takes per entry. */
function bitsOf(size: number): number {
  let bits = 0;
  while (2 ** bits < size) bits++;
  return bits;
}

/**
 * Numbers below 2 ** bits, packed into digits of 6 bits. A dictionary has at most as many
 * entries as a section has records, far below 2 ** 24: the bits held stay within 32.
 */
function packed(codes: readonly number[], bits: number): string {
  const out: string[] = [];
  let acc = 0;
  let held = 0;
  for (const code of codes) {
    acc = (acc << bits) | code;
    held += bits;
    while (held >= 6) {
      held -= 6;
      out.push(DIGITS[(acc >>> held) & 63]);
    }
    acc &= (1 << held) - 1;
  }
  if (held > 0) out.push(DIGITS[(acc << (6 - held)) & 63]);
  return out.join('');
}

function unpacked(text: string, n: number, bits: number): number[] {
  if (text.length !== Math.ceil((n * bits) / 6))
    throw new Error('state column: not a dictionary');
  const out: number[] = [];
  const mask = (1 << bits) - 1;
  let acc = 0;
  let held = 0;
  let at = 0;
  for (let k = 0; k < n; k++) {
    while (held < bits) {
      const d = digitAt(text, at++);
      if (d < 0) throw new Error('state column: not a dictionary');
      acc = ((acc << 6) | d) & 0x3fffffff;
      held += 6;
    }
    held -= bits;
    out.push((acc >>> held) & mask);
  }
  // packed() pads with 0 bits: others are an entry past the records.
  if ((acc & ((1 << held) - 1)) !== 0)
    throw new Error('state column: more entries than records');
  return out;
}

/** A column stored the shortest way. */
export function column(values: ReadonlyArray<string | null>): Column {
  const index = new Map<string | null, number>();
  const codes: number[] = [];
  let texts = 0;
  for (const value of values) {
    let code = index.get(value);
    if (code === undefined) {
      code = index.size;
      index.set(value, code);
      texts += (value?.length ?? 4) + 3;
    }
    codes.push(code);
  }
  const bits = bitsOf(index.size);
  const dictionary = texts + (values.length * bits) / 6;
  // Front coding takes at least two digits a text: no need to try it against less.
  if (dictionary > 2 * values.length) {
    const [front, both] = frontCoded(values);
    const shortest = both.length < front.length ? both : front;
    if (shortest.length <= dictionary) return shortest;
  }
  return {d: [...index.keys()], i: packed(codes, bits)};
}

/** The `n` values of a column; throws on a column no save wrote. */
export function values(stored: Column, n: number): Array<string | null> {
  if (typeof stored === 'string') return fromFrontCoded(stored, n);
  const {d, i} = stored;
  if (!Array.isArray(d) || typeof i !== 'string')
    throw new Error('state column: not a dictionary');
  return unpacked(i, n, bitsOf(d.length)).map(code => {
    const value = d[code];
    if (value === undefined) throw new Error('state column: no such entry');
    return value === null ? null : String(value);
  });
}

/**
 * Texts whose first characters each say something of their own (a print of read-only cells:
 * a character per column, read-only.ts): a column per position up to the shortest text, most
 * of them a few bits a record (a column whose cells are alike prints alike), and the rest of
 * each text.
 */
export interface Prints {
  at: Column[];
  rest: Column;
}

/** Positions a print is cut into at most. */
const MAX_POSITIONS = 64;

function prints(texts: ReadonlyArray<string | null>): Prints {
  // Folded, not spread into Math.min: a section may hold more records than a call takes.
  const lengths = texts.flatMap(t => (t === null ? [] : [t.length]));
  const positions =
    lengths.length > 0
      ? lengths.reduce((a, b) => Math.min(a, b), MAX_POSITIONS)
      : 0;
  return {
    at: Array.from({length: positions}, (_, k) =>
      column(texts.map(t => (t === null ? null : t[k]))),
    ),
    rest: column(texts.map(t => (t === null ? null : t.slice(positions)))),
  };
}

/** By position where that is shorter (many records), else as one column (a few). */
function shorter(byPosition: Prints, whole: Column): Prints | Column {
  return JSON.stringify(byPosition).length < JSON.stringify(whole).length
    ? byPosition
    : whole;
}

function fromPrints(stored: Prints, n: number): Array<string | null> {
  const at = stored.at.map(c => values(c, n));
  const pieces = new Array<string>(at.length + 1);
  return values(stored.rest, n).map((rest, k) => {
    if (rest === null) return null;
    at.forEach((c, p) => {
      // Every position holds a character where the print is: none is left out unseen.
      if (c[k] === null) throw new Error('state column: print');
      pieces[p] = c[k];
    });
    pieces[at.length] = rest;
    return flat(pieces);
  });
}

/** Records as stored by column. */
export function storeRecords(
  records: Readonly<Record<string, RecordState>>,
): StoredRecords {
  const keys = Object.keys(records);
  const states = Object.values(records);
  const rows = states.flatMap(s => s.rows);
  // Folded, not spread into Math.max: a section may hold more rows than a call takes.
  const width = rows.reduce((a, r) => Math.max(a, r.length), 0);
  const factNames = [
    ...new Set(states.flatMap(s => Object.keys(s.facts ?? {}))),
  ];
  const marks: Record<string, Marks> = {};
  states.forEach((s, k) => {
    const m = marksOf(s);
    if (Object.keys(m).length > 0) marks[k] = m;
  });
  return {
    n: keys.length,
    keys: column(keys),
    rows: column(states.map(s => String(s.rows.length))),
    cells: Array.from({length: width}, (_, c) =>
      column(rows.map(r => r[c] ?? null)),
    ),
    facts: Object.fromEntries(
      factNames.map(f => [f, column(states.map(s => s.facts?.[f] ?? null))]),
    ),
    readOnly: shorter(
      prints(states.map(s => s.readOnly ?? null)),
      column(states.map(s => s.readOnly ?? null)),
    ),
    ...(Object.keys(marks).length > 0 ? {marks} : {}),
  };
}

/**
 * Decoded, a record takes no more than it holds: the rows of none are one shared empty array
 * (frozen: a state's rows are replaced, never changed), its object has only the fields it
 * has, each text is a flat string of its own or a dictionary's one (texts alike are one
 * string), and a marked record alone has its marks (issue 37: a large refresh holds several
 * decoded sections at once).
 */
const NO_ROWS = Object.freeze([]) as unknown as string[][];

function recordOf(
  rows: string[][],
  facts: Record<string, string> | undefined,
  readOnly: string | null,
): RecordState {
  // Literals, not spreads: an object of exactly the fields it has.
  if (facts) return readOnly === null ? {rows, facts} : {rows, facts, readOnly};
  return readOnly === null ? {rows} : {rows, readOnly};
}

/** The texts of row `at` across the columns of row texts; a shorter row ends at its first none. */
function rowAt(
  cells: ReadonlyArray<Array<string | null>>,
  at: number,
): string[] {
  let length = 0;
  while (length < cells.length && cells[length][at] !== null) length++;
  // A shorter row has none in every column past its end: a text there is no save's.
  for (let c = length; c < cells.length; c++) {
    if (cells[c][at] !== null) throw new Error('state column: row texts');
  }
  const texts = new Array<string>(length);
  for (let c = 0; c < length; c++) texts[c] = cells[c][at]!;
  return texts;
}

/**
 * Each record's facts by its position, from the facts' columns. A record with every fact (most
 * are) is a copy of one object parsed with them all: V8 keeps a parsed object's fields in the
 * object itself, and a copy of it too, where one built a field at a time keeps four there and
 * the rest in an array of its own (some 64 bytes a record, not 96).
 */
function factsReader(
  facts: ReadonlyArray<readonly [string, Array<string | null>]>,
): (k: number) => Record<string, string> | undefined {
  const every = JSON.parse(
    JSON.stringify(Object.fromEntries(facts.map(([name]) => [name, '']))),
  ) as Record<string, string>;
  return k => {
    let own: Record<string, string> | undefined;
    if (facts.length > 0 && facts.every(([, column]) => column[k] !== null))
      own = {...every};
    for (const [name, column] of facts) {
      const value = column[k];
      if (value !== null) (own ??= {})[name] = value;
    }
    return own;
  };
}

/** The records a section stored by column; throws on columns no save wrote. */
export function readRecords(
  stored: StoredRecords,
): Record<string, RecordState> {
  const n = Number(stored.n);
  if (!Number.isInteger(n) || n < 0) throw new Error('state column: count');
  // A key or a count no save wrote would put one record's rows under another's key.
  const keys = values(stored.keys, n);
  if (keys.includes(null) || new Set(keys).size !== n)
    throw new Error('state column: keys');
  const counts = values(stored.rows, n).map(c =>
    /^\d+$/.test(c ?? '') ? Number(c) : NaN,
  );
  if (counts.some(Number.isNaN)) throw new Error('state column: row counts');
  const total = counts.reduce((a, b) => a + b, 0);
  const cells = stored.cells.map(c => values(c, total));
  const facts = Object.entries(stored.facts).map(
    ([name, c]) => [name, values(c, n)] as const,
  );
  const printed =
    typeof stored.readOnly === 'object' && 'at' in stored.readOnly
      ? fromPrints(stored.readOnly, n)
      : values(stored.readOnly, n);
  const factsOf = factsReader(facts);
  const out: Record<string, RecordState> = {};
  let row = 0;
  for (let k = 0; k < n; k++) {
    const rows = counts[k] === 0 ? NO_ROWS : new Array<string[]>(counts[k]);
    for (let r = 0; r < counts[k]; r++) rows[r] = rowAt(cells, row++);
    const record = recordOf(rows, factsOf(k), printed[k]);
    const marks = stored.marks?.[k];
    if (marks !== undefined) Object.assign(record, marksOf(marks));
    out[keys[k]!] = record;
  }
  return out;
}
