/**
 * Counts as English: "1 row would be sent in 1 request", "2 rows". Every count the add-on
 * prints with a noun goes through `counted`, on the server and in the sidebar alike; every
 * text it quotes from elsewhere is bounded by `clipped`.
 */

/** A noun in its two forms. */
export interface Noun {
  one: string;
  many: string;
}

/** 'row' gives row / rows; irregular or phrase plurals are given whole. */
export function noun(one: string, many = `${one}s`): Noun {
  return {one, many};
}

/** "0 rows", "1 row", "2 rows". */
export function counted(n: number, what: string | Noun): string {
  const {one, many} = typeof what === 'string' ? noun(what) : what;
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * A text cut to `max` characters, saying how much was left out: text from a server or a
 * paste, bounded before it reaches a message or a cell.
 */
export function clipped(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length - max} more characters not shown)`;
}
