/**
 * The Extensions menu with the add-on's menu in it, drawn from the menu onOpen built in the
 * runtime. Submenus open on click or hover; an item runs its function in the runtime.
 */
import type {MenuEntryView, MenuView} from '../protocol';
import {el} from './dom';

/** Closes every open menu below `root` (all of them without one). */
export function closeMenus(root: ParentNode = document): void {
  for (const open of Array.from(
    root.querySelectorAll<HTMLElement>(
      '[aria-expanded="true"][aria-haspopup="menu"]',
    ),
  )) {
    open.setAttribute('aria-expanded', 'false');
    (open.nextElementSibling as HTMLElement | null)?.setAttribute('hidden', '');
  }
}

function toggle(button: HTMLElement, open: boolean): void {
  const holder = button.parentElement!;
  const siblings = holder.parentElement;
  if (open && siblings) {
    for (const other of Array.from(siblings.children)) {
      if (other !== holder) closeMenus(other);
    }
  }
  if (!open) closeMenus(holder);
  button.setAttribute('aria-expanded', String(open));
  (button.nextElementSibling as HTMLElement).toggleAttribute('hidden', !open);
}

export function submenu(
  caption: string,
  entries: MenuEntryView[],
  run: (caption: string) => void,
  holderClass: string,
  role?: string,
): HTMLElement {
  const button = el(
    'button',
    {type: 'button', role, 'aria-haspopup': 'menu', 'aria-expanded': 'false'},
    caption,
  );
  if (role === 'menuitem')
    button.append(el('span', {class: 'arrow', 'aria-hidden': 'true'}, '▸'));
  const list = el('div', {role: 'menu', 'aria-label': caption, hidden: true});
  for (const entry of entries) list.append(menuEntry(entry, run));
  const nested = role === 'menuitem';
  button.addEventListener('click', e => {
    e.stopPropagation();
    // A submenu opens on hover already: a click then must not close it.
    toggle(button, nested || button.getAttribute('aria-expanded') !== 'true');
  });
  if (nested) button.addEventListener('mouseenter', () => toggle(button, true));
  return el('div', {class: holderClass}, button, list);
}

export function menuEntry(
  entry: MenuEntryView,
  run: (caption: string) => void,
): HTMLElement {
  switch (entry.kind) {
    case 'separator':
      return el('div', {role: 'separator'});
    case 'submenu':
      return submenu(
        entry.caption,
        entry.entries,
        run,
        'submenu-holder',
        'menuitem',
      );
    case 'item': {
      const item = el(
        'button',
        {type: 'button', role: 'menuitem'},
        entry.caption,
      );
      item.addEventListener('click', e => {
        e.stopPropagation();
        closeMenus();
        run(entry.caption);
      });
      item.addEventListener('mouseenter', () => {
        for (const other of Array.from(item.parentElement!.children))
          closeMenus(other);
      });
      return item;
    }
  }
}

/** Puts Extensions, with each add-on menu under it, into the menu bar. */
export function renderMenuBar(
  bar: HTMLElement,
  menus: MenuView[],
  run: (caption: string) => void,
): void {
  bar.querySelector('.menu-root:not(.sheet-menu)')?.remove();
  const addons: MenuEntryView[] = menus.map(m => ({
    kind: 'submenu',
    caption: m.name,
    entries: m.entries,
  }));
  bar.append(submenu('Extensions', addons, run, 'menu-root'));
  document.addEventListener('click', () => closeMenus());
  document.addEventListener('keydown', e => {
    if (e.key === 'Escape') closeMenus();
  });
}
