/**
 * The Drive files panel: the playground's Drive (demo images and files added here), each with
 * its id to write in the Creatives sheet's `file` column; files are added with a picker or by
 * dropping them on the panel.
 */
import type {DriveFileView} from '../protocol';
import {get, upload} from './api';
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

  async load(): Promise<void> {
    this.render(await get<DriveFileView[]>('/api/drive'));
  }

  private render(files: DriveFileView[]): void {
    this.list.replaceChildren(...files.map(f => this.row(f)));
  }

  private row(file: DriveFileView): HTMLElement {
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
      el('div', {class: 'actions'}, use, copy),
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
