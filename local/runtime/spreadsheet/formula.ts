import type {Content} from './cell';

/**
 * The formulas a person commonly types, evaluated as Sheets does: numbers, "strings", TRUE and
 * FALSE; + - * / ^ & % and comparisons; references (A1, $A$1, 'Other sheet'!B2) and ranges
 * (A1:B3, A:A) inside functions; SUM, AVERAGE, MIN, MAX, COUNT, ROUND, ABS, IF, AND, OR, NOT,
 * CONCATENATE. Errors read as Sheets shows them: #DIV/0!, #REF! (a missing sheet, a cell outside
 * the sheet, a circular reference), #NAME? (an unknown function or name), #VALUE! (text where a
 * number is needed), #N/A (a wrong number of arguments), #ERROR! (a formula that does not parse).
 * An error written in a formula (`=#REF!*10`, what Sheets leaves of a reference to a deleted
 * row) is that error.
 * Anything else Sheets would do is not modelled: a range a formula returns whole shows its top-left
 * value (Sheets would spill it over the neighbouring cells).
 */

/** What the evaluator needs of a sheet; FakeSheet is one. */
export interface FormulaSheet {
  title(): string;
  cellAt(row: number, column: number): {content?: Content} | undefined;
  size(): {maxRows: number; maxColumns: number};
  /** Another sheet of the same spreadsheet, by the name a reference gives. */
  sibling(name: string): FormulaSheet | undefined;
}

/** A formula's result: a number, a text (errors included, as Sheets' getValue gives them) or a boolean. */
export type Result =
  | {kind: 'number'; value: number}
  | {kind: 'text'; text: string}
  | {kind: 'boolean'; value: boolean};

export const PARSE_ERROR = '#ERROR!';

class FormulaError {
  constructor(readonly code: string) {}
}

type Scalar = number | string | boolean | null | FormulaError;
type Value = Scalar | Scalar[][];

interface Ref {
  sheet?: string;
  row: number;
  column: number;
  /** The far corner of a range; for a whole column (A:A) the row is Infinity. */
  toRow: number;
  toColumn: number;
}

/** One end of a reference as written; a whole column (A:A) has no row. */
export interface RefEnd {
  column: number;
  row?: number;
  columnFixed: boolean;
  rowFixed: boolean;
}

/** A reference as it stands in a formula's text, for rewriting it when cells move. */
export interface WrittenRef {
  /** Where it stands in the formula's text ('=' counted), sheet prefix included; end exclusive. */
  start: number;
  end: number;
  /** The sheet it names; undefined for the formula's own sheet. */
  sheet?: string;
  /** The sheet prefix as written, '!' included; '' without one. */
  prefix: string;
  from: RefEnd;
  /** The far end of a range (A1:B3, A:A). */
  to?: RefEnd;
}

type Node =
  | {t: 'value'; v: Scalar}
  | {t: 'ref'; ref: Ref}
  | {t: 'call'; name: string; args: Node[]}
  | {t: 'op'; op: string; a: Node; b: Node}
  | {t: 'neg'; a: Node}
  | {t: 'percent'; a: Node};

const DIV0 = new FormulaError('#DIV/0!');
const REF = new FormulaError('#REF!');
const NAME = new FormulaError('#NAME?');
const VALUE = new FormulaError('#VALUE!');
const NA = new FormulaError('#N/A');
const NUM = new FormulaError('#NUM!');

/** An error written into a formula, as Sheets writes `=#REF!*10` for a reference to a deleted row. */
const ERROR_LITERALS: Record<string, FormulaError> = Object.fromEntries(
  [DIV0, REF, NAME, VALUE, NA, NUM, new FormulaError(PARSE_ERROR)].map(e => [
    e.code,
    e,
  ]),
);

// ---- parsing ----

const TOKEN = {
  space: /\s*/y,
  number: /(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y,
  string: /"((?:[^"]|"")*)"/y,
  sheet: /(?:'((?:[^']|'')+)'|([A-Za-z_][A-Za-z0-9_]*))!/y,
  cell: /(\$?)([A-Za-z]{1,3})(\$?)(\d+)(?![\w(.])/y,
  column: /(\$?)([A-Za-z]{1,3})(?![A-Za-z0-9(_.])/y,
  error: /#(?:REF!|DIV\/0!|N\/A|NAME\?|VALUE!|NUM!|ERROR!)/y,
  name: /[A-Za-z_][A-Za-z0-9_.]*/y,
  comparison: /<=|>=|<>|=|<|>/y,
};

function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + ch.charCodeAt(0) - 64;
  return n;
}

class Parser {
  private pos = 0;
  /** The references met, in the order they stand. */
  readonly written: WrittenRef[] = [];
  constructor(private readonly src: string) {}

  parse(): Node {
    const node = this.comparison();
    this.skip();
    if (this.pos < this.src.length) throw new SyntaxError(this.src);
    return node;
  }

  private skip(): void {
    this.match(TOKEN.space);
  }

  private match(re: RegExp): RegExpExecArray | null {
    re.lastIndex = this.pos;
    const m = re.exec(this.src);
    if (m) this.pos = re.lastIndex;
    return m;
  }

  private take(text: string): boolean {
    this.skip();
    if (!this.src.startsWith(text, this.pos)) return false;
    this.pos += text.length;
    return true;
  }

  private binary(next: () => Node, ops: RegExp | string[]): Node {
    let a = next();
    for (;;) {
      this.skip();
      const op = Array.isArray(ops)
        ? ops.find(o => this.take(o))
        : this.match(ops)?.[0];
      if (!op) return a;
      a = {t: 'op', op, a, b: next()};
    }
  }

  private comparison = (): Node => this.binary(this.concat, TOKEN.comparison);
  private concat = (): Node => this.binary(this.additive, ['&']);
  private additive = (): Node => this.binary(this.term, ['+', '-']);
  private term = (): Node => this.binary(this.power, ['*', '/']);
  private power = (): Node => this.binary(this.unary, ['^']);

  private unary = (): Node => {
    if (this.take('-')) return {t: 'neg', a: this.unary()};
    if (this.take('+')) return this.unary();
    let node = this.primary();
    while (this.take('%')) node = {t: 'percent', a: node};
    return node;
  };

  private primary(): Node {
    this.skip();
    let m = this.match(TOKEN.number);
    if (m) return {t: 'value', v: Number(m[0])};
    m = this.match(TOKEN.string);
    if (m) return {t: 'value', v: m[1].replace(/""/g, '"')};
    m = this.match(TOKEN.error);
    if (m) return {t: 'value', v: ERROR_LITERALS[m[0]]};
    if (this.take('(')) {
      const inner = this.comparison();
      if (!this.take(')')) throw new SyntaxError(this.src);
      return inner;
    }
    const ref = this.reference();
    if (ref) return {t: 'ref', ref};
    m = this.match(TOKEN.name);
    if (!m) throw new SyntaxError(this.src);
    const name = m[0].toUpperCase();
    if (this.take('(')) return {t: 'call', name, args: this.args()};
    if (name === 'TRUE' || name === 'FALSE')
      return {t: 'value', v: name === 'TRUE'};
    return {t: 'value', v: NAME};
  }

  private args(): Node[] {
    const args: Node[] = [];
    if (this.take(')')) return args;
    do args.push(this.comparison());
    while (this.take(','));
    if (!this.take(')')) throw new SyntaxError(this.src);
    return args;
  }

  /** A1, $A$1, A1:B3, A:A, each optionally after Sheet! or 'A sheet'!; undefined if none here. */
  private reference(): Ref | undefined {
    const start = this.pos;
    const prefix = this.match(TOKEN.sheet);
    const sheet = prefix
      ? (prefix[1]?.replace(/''/g, "'") ?? prefix[2])
      : undefined;
    const ends = this.cellEnds() ?? this.columnEnds();
    if (!ends) {
      if (prefix) throw new SyntaxError(this.src);
      this.pos = start;
      return undefined;
    }
    const [from, to] = ends;
    this.written.push({
      start,
      end: this.pos,
      sheet,
      prefix: prefix?.[0] ?? '',
      from,
      to,
    });
    const rows =
      from.row === undefined ? [1, Infinity] : [from.row, to?.row ?? from.row];
    const columns = [from.column, to?.column ?? from.column];
    return {
      sheet,
      row: Math.min(rows[0], rows[1]),
      column: Math.min(columns[0], columns[1]),
      toRow: Math.max(rows[0], rows[1]),
      toColumn: Math.max(columns[0], columns[1]),
    };
  }

  /** A1 or A1:B3. */
  private cellEnds(): [RefEnd, RefEnd?] | undefined {
    const from = this.match(TOKEN.cell);
    if (!from) return undefined;
    const colon = this.pos;
    const to = this.take(':') ? this.match(TOKEN.cell) : null;
    if (!to) this.pos = colon;
    return to ? [cellEnd(from), cellEnd(to)] : [cellEnd(from)];
  }

  /** A:A (a column alone is a name, not a reference). */
  private columnEnds(): [RefEnd, RefEnd] | undefined {
    const left = this.match(TOKEN.column);
    const right = left && this.take(':') ? this.match(TOKEN.column) : null;
    if (!left || !right) return undefined;
    return [columnEnd(left), columnEnd(right)];
  }
}

function cellEnd(m: RegExpExecArray): RefEnd {
  return {
    column: columnNumber(m[2]),
    columnFixed: m[1] === '$',
    row: Number(m[4]),
    rowFixed: m[3] === '$',
  };
}

function columnEnd(m: RegExpExecArray): RefEnd {
  return {
    column: columnNumber(m[2]),
    columnFixed: m[1] === '$',
    rowFixed: false,
  };
}

interface Parsed {
  node: Node;
  written: WrittenRef[];
}

const parsed = new Map<string, Parsed | undefined>();

function parseFormula(formula: string): Parsed | undefined {
  if (!parsed.has(formula)) {
    const offset = formula.startsWith('=') ? 1 : 0;
    let result: Parsed | undefined;
    try {
      const parser = new Parser(formula.slice(offset));
      const node = parser.parse();
      const written = parser.written.map(w => ({
        ...w,
        start: w.start + offset,
        end: w.end + offset,
      }));
      result = {node, written};
    } catch {
      result = undefined;
    }
    parsed.set(formula, result);
  }
  return parsed.get(formula);
}

function parse(formula: string): Node | undefined {
  return parseFormula(formula)?.node;
}

/** The references of a formula as written, in text order; undefined if it does not parse. */
export function referencesIn(
  formula: string,
): readonly WrittenRef[] | undefined {
  return parseFormula(formula)?.written;
}

// ---- evaluation ----

/** Cells whose formulas are being evaluated: reaching one again is a circular reference. */
const inProgress = new Set<string>();

function cellValue(sheet: FormulaSheet, row: number, column: number): Scalar {
  const content = sheet.cellAt(row, column)?.content;
  if (!content) return null;
  switch (content.kind) {
    case 'text':
      return content.text;
    case 'number':
    case 'boolean':
      return content.value;
    case 'formula': {
      const key = `${sheet.title()}!${row}:${column}`;
      if (inProgress.has(key)) return REF;
      inProgress.add(key);
      try {
        return scalar(evaluateNode(content.formula, sheet));
      } finally {
        inProgress.delete(key);
      }
    }
  }
}

function evaluateNode(formula: string, sheet: FormulaSheet): Value {
  const node = parse(formula);
  return node ? evaluate(node, sheet) : new FormulaError(PARSE_ERROR);
}

function resolve(ref: Ref, here: FormulaSheet): Value {
  const sheet = ref.sheet === undefined ? here : here.sibling(ref.sheet);
  if (!sheet) return REF;
  const {maxRows, maxColumns} = sheet.size();
  const toRow = Math.min(ref.toRow, maxRows);
  if (ref.row > maxRows || (ref.toRow !== Infinity && ref.toRow > maxRows))
    return REF;
  if (ref.toColumn > maxColumns) return REF;
  if (ref.row === ref.toRow && ref.column === ref.toColumn)
    return cellValue(sheet, ref.row, ref.column);
  const grid: Scalar[][] = [];
  for (let r = ref.row; r <= toRow; r++) {
    const row: Scalar[] = [];
    for (let c = ref.column; c <= ref.toColumn; c++)
      row.push(cellValue(sheet, r, c));
    grid.push(row);
  }
  return grid;
}

function scalar(v: Value): Scalar {
  if (!Array.isArray(v)) return v;
  return v.length === 1 && v[0].length === 1 ? v[0][0] : VALUE;
}

const NUMERIC = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

function toNumber(v: Scalar): number | FormulaError {
  if (v instanceof FormulaError || typeof v === 'number') return v;
  if (v === null || v === '') return 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return NUMERIC.test(v) ? Number(v) : VALUE;
}

/** A number as text joins it (`=0.1*3&""` is "0.3"): 15 significant digits, as Sheets. */
function toText(v: Scalar): string | FormulaError {
  if (v instanceof FormulaError || typeof v === 'string') return v;
  if (v === null) return '';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  return String(Number(v.toPrecision(15)));
}

function toBoolean(v: Scalar): boolean | FormulaError {
  if (v instanceof FormulaError || typeof v === 'boolean') return v;
  if (v === null) return false;
  if (typeof v === 'number') return v !== 0;
  if (/^true$/i.test(v)) return true;
  return /^false$/i.test(v) ? false : VALUE;
}

const TYPE_ORDER = {number: 0, string: 1, boolean: 2};

/** Sheets' order: numbers before texts before booleans; texts ignore case; empty is 0, "" or FALSE. */
function compare(a: Exclude<Scalar, FormulaError>, b: typeof a): number {
  const blank = (x: typeof a, other: typeof a) =>
    x !== null
      ? x
      : typeof other === 'string'
        ? ''
        : typeof other === 'boolean'
          ? false
          : 0;
  const x = blank(a, b) as number | string | boolean;
  const y = blank(b, a) as number | string | boolean;
  const order =
    TYPE_ORDER[typeof x as keyof typeof TYPE_ORDER] -
    TYPE_ORDER[typeof y as keyof typeof TYPE_ORDER];
  if (order !== 0) return order;
  const [p, q] =
    typeof x === 'string'
      ? [x.toLowerCase(), (y as string).toLowerCase()]
      : [x, y];
  return p < q ? -1 : p > q ? 1 : 0;
}

function arithmetic(op: string, x: number, y: number): number | FormulaError {
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      return y === 0 ? DIV0 : x / y;
    default: {
      const p = Math.pow(x, y);
      return Number.isFinite(p) ? p : NUM;
    }
  }
}

const COMPARISONS: Record<string, (c: number) => boolean> = {
  '=': c => c === 0,
  '<>': c => c !== 0,
  '<': c => c < 0,
  '>': c => c > 0,
  '<=': c => c <= 0,
  '>=': c => c >= 0,
};

function operate(op: string, a: Scalar, b: Scalar): Scalar {
  if (a instanceof FormulaError) return a;
  if (b instanceof FormulaError) return b;
  if (op === '&') {
    return (toText(a) as string) + (toText(b) as string);
  }
  const comparison = COMPARISONS[op];
  if (comparison) return comparison(compare(a, b));
  const x = toNumber(a);
  const y = toNumber(b);
  if (x instanceof FormulaError) return x;
  if (y instanceof FormulaError) return y;
  return arithmetic(op, x, y);
}

/**
 * The numbers a SUM-like function takes: numbers inside ranges (text, booleans and blanks
 * there are skipped), and every argument given directly, coerced ("3" is 3).
 */
function numbersOf(values: Value[]): number[] | FormulaError {
  const numbers: number[] = [];
  for (const v of values) {
    if (Array.isArray(v)) {
      for (const x of v.flat()) {
        if (x instanceof FormulaError) return x;
        if (typeof x === 'number') numbers.push(x);
      }
      continue;
    }
    const n = toNumber(v);
    if (n instanceof FormulaError) return n;
    numbers.push(n);
  }
  return numbers;
}

function roundHalfAway(x: number, digits: number): number {
  const factor = Math.pow(10, Math.trunc(digits));
  const scaled = Number((Math.abs(x) * factor).toPrecision(15));
  return (Math.sign(x) * Math.round(scaled)) / factor;
}

type Fn = (args: Node[], sheet: FormulaSheet) => Scalar;

function numeric(min: number, fn: (numbers: number[]) => Scalar): Fn {
  return (args, sheet) => {
    if (args.length < min) return NA;
    const numbers = numbersOf(args.map(a => evaluate(a, sheet)));
    return numbers instanceof FormulaError ? numbers : fn(numbers);
  };
}

function logical(fn: (values: boolean[]) => boolean): Fn {
  return (args, sheet) => {
    if (args.length === 0) return NA;
    const values: boolean[] = [];
    for (const a of args) {
      const v = evaluate(a, sheet);
      for (const x of Array.isArray(v) ? v.flat() : [v]) {
        if (Array.isArray(v) && (x === null || typeof x === 'string')) continue;
        const b = toBoolean(x);
        if (b instanceof FormulaError) return b;
        values.push(b);
      }
    }
    return fn(values);
  };
}

const FUNCTIONS: Record<string, Fn> = {
  SUM: numeric(1, ns => ns.reduce((s, n) => s + n, 0)),
  AVERAGE: numeric(1, ns =>
    ns.length ? ns.reduce((s, n) => s + n, 0) / ns.length : DIV0,
  ),
  MIN: numeric(1, ns => (ns.length ? Math.min(...ns) : 0)),
  MAX: numeric(1, ns => (ns.length ? Math.max(...ns) : 0)),
  COUNT: (args, sheet) =>
    args
      .map(a => evaluate(a, sheet))
      .flatMap(v => (Array.isArray(v) ? v.flat() : [v]))
      .filter(v => typeof v === 'number').length,
  ROUND: (args, sheet) => {
    if (args.length < 1 || args.length > 2) return NA;
    const [x, digits = 0] = args.map(a => toNumber(scalar(evaluate(a, sheet))));
    if (x instanceof FormulaError) return x;
    if (digits instanceof FormulaError) return digits;
    return roundHalfAway(x, digits);
  },
  ABS: (args, sheet) => {
    if (args.length !== 1) return NA;
    const x = toNumber(scalar(evaluate(args[0], sheet)));
    return x instanceof FormulaError ? x : Math.abs(x);
  },
  IF: (args, sheet) => {
    if (args.length < 2 || args.length > 3) return NA;
    const condition = toBoolean(scalar(evaluate(args[0], sheet)));
    if (condition instanceof FormulaError) return condition;
    const branch = condition ? args[1] : args[2];
    return branch ? scalar(evaluate(branch, sheet)) : false;
  },
  AND: logical(vs => vs.every(Boolean)),
  OR: logical(vs => vs.some(Boolean)),
  NOT: (args, sheet) => {
    if (args.length !== 1) return NA;
    const b = toBoolean(scalar(evaluate(args[0], sheet)));
    return b instanceof FormulaError ? b : !b;
  },
  CONCATENATE: (args, sheet) => {
    if (args.length === 0) return NA;
    let text = '';
    for (const a of args) {
      const v = evaluate(a, sheet);
      for (const x of Array.isArray(v) ? v.flat() : [v]) {
        const t = toText(x);
        if (t instanceof FormulaError) return t;
        text += t;
      }
    }
    return text;
  },
};

function evaluate(node: Node, sheet: FormulaSheet): Value {
  switch (node.t) {
    case 'value':
      return node.v;
    case 'ref':
      return resolve(node.ref, sheet);
    case 'call': {
      const fn = FUNCTIONS[node.name];
      return fn ? fn(node.args, sheet) : NAME;
    }
    case 'op':
      return operate(
        node.op,
        scalar(evaluate(node.a, sheet)),
        scalar(evaluate(node.b, sheet)),
      );
    case 'neg':
    case 'percent': {
      const x = toNumber(scalar(evaluate(node.a, sheet)));
      if (x instanceof FormulaError) return x;
      return node.t === 'neg' ? -x : x / 100;
    }
  }
}

/**
 * What a formula in `sheet` computes; without a sheet (a formula read out of any sheet) a
 * reference is #REF!. A blank result (`=A1` of an empty A1) is 0, as in Sheets.
 */
export function formulaResult(formula: string, sheet?: FormulaSheet): Result {
  const value = scalar(evaluateNode(formula, sheet ?? NO_SHEET));
  if (value instanceof FormulaError) return {kind: 'text', text: value.code};
  if (value === null) return {kind: 'number', value: 0};
  if (typeof value === 'string') return {kind: 'text', text: value};
  if (typeof value === 'boolean') return {kind: 'boolean', value};
  return Number.isFinite(value)
    ? {kind: 'number', value}
    : {kind: 'text', text: NUM.code};
}

/** What a sort compares: a number, a text (an error is its text), a boolean; null when blank. */
export type SortValue = number | string | boolean | null;

/** A cell's value as a sort compares it, its formula evaluated where it stands. */
export function sortValue(
  sheet: FormulaSheet,
  row: number,
  column: number,
): SortValue {
  const value = cellValue(sheet, row, column);
  return value instanceof FormulaError ? value.code : value;
}

/** Sheets' ascending order of two values that are not blank: numbers, texts (any case), booleans. */
export function compareSortValues(
  a: Exclude<SortValue, null>,
  b: Exclude<SortValue, null>,
): number {
  return compare(a, b);
}

const NO_SHEET: FormulaSheet = {
  title: () => '',
  cellAt: () => undefined,
  size: () => ({maxRows: 0, maxColumns: 0}),
  sibling: () => undefined,
};
