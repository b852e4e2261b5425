/**
 * The Drive files panel: the playground's Drive (demo images and files added here), and the
 * stand-in for Google's Picker: "Pick" is what picking the file in "Choose files…" does (the
 * add-on may read it, and it gets a Creatives row). An id written into the `file` column
 * without picking is refused by the upload, as Google's Drive refuses it under drive.file.
 * Files are added with a file chooser or by dropping them on the panel.
 */
import type {DriveFileView, PickResult} from '../protocol';
import {get, post, upload} from './api';
import {byId, el} from './dom';

export class DrivePanel {
  private readonly list = byId('drive-files');
  private readonly message = byId('drive-message');

  constructor(private readonly useInCell: (id: string) => Promise<void>) {
    const input = byId<HTMLInputElement>('drive-input');
    byId('drive-pick').addEventListener('click', () => input.click());
    input.addEventListener('change', () => {
      void this.add(Array.from(input.files ?? []));
      input.value = '';
    });
    const zone = byId('drop-zone');
    zone.addEventListener('dragover', e => {
      e.preventDefault();
      zone.classList.add('over');
    });
    zone.addEventListener('dragleave', () => zone.classList.remove('over'));
    zone.addEventListener('drop', e => {
      e.preventDefault();
      zone.classList.remove('over');
      void this.add(Array.from(e.dataTransfer?.files ?? []));
    });
  }

  /** aria-busy tells a screen reader (and a test) that the list is about to be replaced. */
  async load(): Promise<void> {
    this.list.setAttribute('aria-busy', 'true');
    try {
      this.render(await get<DriveFileView[]>('/api/drive'));
    } finally {
      this.list.removeAttribute('aria-busy');
    }
  }

  private render(files: DriveFileView[]): void {
    this.list.replaceChildren(...files.map(f => this.row(f)));
  }

  private async pick(file: DriveFileView): Promise<void> {
    try {
      const result = await post<PickResult>('/api/drive/pick', {
        ids: [file.id],
      });
      this.message.textContent = result.message;
    } catch (e) {
      this.message.textContent = `${file.name} not picked: ${(e as Error).message}`;
    }
  }

  private row(file: DriveFileView): HTMLElement {
    const pick = el('button', {type: 'button'}, 'Pick (Choose files…)');
    pick.addEventListener('click', () => void this.pick(file));
    const use = el('button', {type: 'button'}, 'Use in selected cell');
    use.addEventListener('click', () => void this.useInCell(file.id));
    const copy = el('button', {type: 'button'}, 'Copy id');
    copy.addEventListener('click', () => {
      void navigator.clipboard.writeText(file.id).then(
        () => (this.message.textContent = `Copied ${file.id}.`),
        () => (this.message.textContent = `Copy it by hand: ${file.id}`),
      );
    });
    const preview = file.image
      ? el('img', {src: `/drive/${file.id}`, alt: ''})
      : el('div', {'aria-hidden': 'true'}, '▤');
    return el(
      'div',
      {class: 'drive-file', 'data-file-id': file.id},
      preview,
      el(
        'div',
        {},
        el('div', {class: 'name'}, file.name),
        el('code', {}, file.id),
        el('div', {}, `${(file.bytes / 1024).toFixed(1)} KB`),
      ),
      el('div', {class: 'actions'}, pick, use, copy),
    );
  }

  private async add(files: File[]): Promise<void> {
    const added: string[] = [];
    for (const file of files) {
      try {
        const stored = await upload<DriveFileView>('/api/drive', file);
        added.push(`${stored.name}: ${stored.id}`);
      } catch (e) {
        added.push(`${file.name} not added: ${(e as Error).message}`);
      }
    }
    this.message.textContent = added.join('\n');
    await this.load();
  }
}
