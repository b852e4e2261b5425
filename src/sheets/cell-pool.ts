/**
 * Values a listing repeats, held once (issue 37). Parsed JSON gives every record its own copy
 * of each text and encoding makes a Date per cell, while thousands of offers share a few
 * statuses, geos, JSON defaults (`[]`, `{"switch":0,"agg_id":[],"package":[]}`) and start
 * days: a listing keeps the pool's copy.
 *
 * Most texts of a listing are its records' own (ids, names, links), so a pool that remembered
 * every text would hold an entry for each: it forgets all of them once it holds POOL_ENTRIES,
 * and the values that repeat are soon held again.
 */
import type {CellValue} from '../platform/ports';
import {isDate} from './cell';

/** The longest text held once: longer ones (links, JSON of a budget) rarely repeat. */
const POOLED_LENGTH = 200;

/** The most values of a kind a pool remembers before it starts afresh. */
const POOL_ENTRIES = 4096;

/** `value`, or the equal one `held` already has (keyed `key`). */
function heldOnce<K, V>(held: Map<K, V>, key: K, value: V): V {
  const same = held.get(key);
  if (same !== undefined) return same;
  if (held.size >= POOL_ENTRIES) held.clear();
  held.set(key, value);
  return value;
}

export class CellPool {
  private readonly texts = new Map<string, string>();
  private readonly moments = new Map<number, Date>();
  private readonly lists = new Map<string, readonly number[]>();

  /** `text`, or the equal text the pool already holds. */
  text(text: string): string {
    return text.length > POOLED_LENGTH
      ? text
      : heldOnce(this.texts, text, text);
  }

  /** `cell`, or the equal text or moment the pool already holds. */
  cell<C extends CellValue | undefined>(cell: C): C {
    if (typeof cell === 'string') return this.text(cell) as C;
    if (!isDate(cell)) return cell;
    return heldOnce(this.moments, cell.getTime(), cell) as C;
  }

  /**
   * `facts` made anew, property by property, their texts held once: an object made by spreading
   * others (as facts are composed) holds three times as much.
   */
  facts(facts: Readonly<Record<string, string>>): Record<string, string> {
    const held: Record<string, string> = {};
    for (const k of Object.keys(facts)) held[k] = this.text(facts[k]);
    return held;
  }

  /** `list` of column indexes, or the equal list the pool already holds. */
  indexes(list: readonly number[]): readonly number[] {
    return heldOnce(this.lists, list.join(), list);
  }
}
