/**
 * DOM helpers. Text reaches the page only through textContent and attribute values: nothing
 * from the API or the user is ever parsed as HTML.
 */

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`The sidebar has no element #${id}.`);
  return found as T;
}

export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text = '',
  attributes: Record<string, string> = {},
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.textContent = text;
  for (const [name, value] of Object.entries(attributes)) {
    node.setAttribute(name, value);
  }
  return node;
}

export type Tone = 'ok' | 'warn' | 'error' | 'info';

/** Shows a message (empty text hides it). */
export function say(
  target: HTMLElement,
  text: string,
  tone: Tone = 'info',
): void {
  target.textContent = text;
  target.dataset.tone = tone;
}

/**
 * Everything that starts work on the server is disabled while a job runs, so nothing else can
 * start meanwhile; `busy` says so to screen readers too.
 */
export class Busy {
  private readonly controls = new Set<
    HTMLButtonElement | HTMLInputElement | HTMLSelectElement
  >();
  private count = 0;

  add(
    ...controls: Array<HTMLButtonElement | HTMLInputElement | HTMLSelectElement>
  ): void {
    for (const c of controls) this.controls.add(c);
    this.apply();
  }

  /** Controls taken off the page: kept, they would be held and toggled for nothing. */
  forget(
    ...controls: Array<HTMLButtonElement | HTMLInputElement | HTMLSelectElement>
  ): void {
    for (const c of controls) this.controls.delete(c);
  }

  get running(): boolean {
    return this.count > 0;
  }

  /** Runs `work` with every control disabled, whatever its outcome. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    this.count++;
    this.apply();
    try {
      return await work();
    } finally {
      this.count--;
      this.apply();
    }
  }

  private apply(): void {
    const disabled = this.count > 0;
    for (const c of this.controls) c.disabled = disabled;
    document.body.setAttribute('aria-busy', String(disabled));
  }
}
