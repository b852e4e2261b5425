/**
 * A small seeded pseudo-random generator (mulberry32). Seeds must reproduce the same data on
 * every machine and node version, which Math.random cannot promise.
 */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both ends included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A number in [min, max) rounded to `decimals` places. */
  decimal(min: number, max: number, decimals: number): number {
    const scale = 10 ** decimals;
    return Math.round((min + this.next() * (max - min)) * scale) / scale;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** `count` distinct items in their original order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const wanted = Math.min(count, items.length);
    const picked: number[] = [];
    while (picked.length < wanted) {
      const index = this.int(0, items.length - 1);
      if (!picked.includes(index)) picked.push(index);
    }
    return picked.sort((a, b) => a - b).map(index => items[index]);
  }

  /** Picks a key of `weights` with probability proportional to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    let total = 0;
    for (const key in weights) total += weights[key];
    let roll = this.next() * total;
    let last = '' as K;
    for (const key in weights) {
      last = key;
      roll -= weights[key];
      if (roll < 0) break;
    }
    return last;
  }

  hex(length: number): string {
    let text = '';
    while (text.length < length) {
      text += Math.floor(this.next() * 0x10000)
        .toString(16)
        .padStart(4, '0');
    }
    return text.slice(0, length);
  }
}

/** Derives an independent stream seed from a base seed and a label (FNV-1a). */
export function deriveSeed(seed: number, label: string): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < label.length; i++) {
    hash ^= label.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
