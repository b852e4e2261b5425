/**
 * The popovers of the top bar (Drive files, Demo keys): a button opens its panel, one at a
 * time; the button again, Esc or a click elsewhere in the page closes it. A click in the
 * sidebar does not: its frame is another document, and the demo keys are there to be pasted
 * into it field by field.
 */
import {byId} from './dom';

function closeAll(): void {
  for (const panel of Array.from(
    document.querySelectorAll<HTMLElement>('.popover'),
  )) {
    if (panel.hidden) continue;
    panel.hidden = true;
    const toggle = document.querySelector<HTMLElement>(
      `[aria-controls="${panel.id}"]`,
    );
    toggle?.setAttribute('aria-expanded', 'false');
    // Focus inside the panel would be lost with it: back to the button that opened it.
    if (panel.contains(document.activeElement)) toggle?.focus();
  }
}

document.addEventListener('keydown', e => {
  if (e.key === 'Escape') closeAll();
});
document.addEventListener('mousedown', e => {
  if (!(e.target as Element).closest('.popover, [aria-controls]')) closeAll();
});

/** Wires a toggle button to its panel; `onOpen` runs each time it opens. */
export function popover(
  toggleId: string,
  panelId: string,
  onOpen: () => void,
): void {
  const button = byId(toggleId);
  const panel = byId(panelId);
  button.addEventListener('click', () => {
    const open = panel.hidden;
    closeAll();
    panel.hidden = !open;
    button.setAttribute('aria-expanded', String(open));
    if (open) onOpen();
  });
}
