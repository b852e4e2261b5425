/**
 * What the create jobs' unit tests share: the emulator platform with in-memory material
 * files, sheets filled by header as a user would, and the demo account's deliverable campaign.
 */
import type {Emulator} from '../../../local/emulator';
import type {
  CellValue,
  FileBlob,
  FileRead,
  FileReadOptions,
  FileRef,
  FileSource,
} from '../../../src/platform/ports';
import {nameWithExtension} from '../../../src/platform/files';
import {SheetSchema, allColumns} from '../../../src/sheets/schema';
import {emulatorPlatform} from '../../support/emulator-platform';
import type {MemoryWorkbook} from '../../support/workbook';

export interface MemoryFile {
  name: string;
  type: string;
  bytes: number[];
}

/** Material files by Drive id or URL; `onRead` runs before each read (a slow Drive, say). */
export class MemoryFiles implements FileSource {
  readonly files = new Map<
    string,
    MemoryFile | Exclude<FileRead, {ok: true}>
  >();
  readonly reads: FileRef[] = [];
  onRead: () => void = () => {};

  add(key: string, name: string, content: string, type = 'image/png'): void {
    this.files.set(key, {name, type, bytes: [...Buffer.from(content)]});
  }

  read(ref: FileRef, options: FileReadOptions): FileRead {
    this.onRead();
    this.reads.push(ref);
    const key = 'driveId' in ref ? ref.driveId : ref.url;
    const file = this.files.get(key);
    if (!file) {
      return {
        ok: false,
        problem: 'missing',
        reason: `no Drive file with id ${key} can be opened: check the id, and that the file is shared with you`,
      };
    }
    if ('problem' in file) return file;
    if (file.bytes.length > options.maxBytes) {
      return {
        ok: false,
        problem: 'too-large',
        reason: `${file.name} is too large`,
      };
    }
    const name = options.name
      ? nameWithExtension(options.name, file.name)
      : file.name;
    const blob: FileBlob = {
      getName: () => name,
      getContentType: () => file.type,
      getBytes: () => file.bytes.map(b => (b > 127 ? b - 256 : b)),
    };
    return {ok: true, blob};
  }
}

export function createPlatform(
  options: Parameters<typeof emulatorPlatform>[0] = {},
) {
  const env = emulatorPlatform({
    offers: 5,
    campaigns: 5,
    materials: 4,
    ...options,
  });
  const files = new MemoryFiles();
  env.platform.files = files;
  return {...env, files, campaignId: deliverableCampaign(env.emulator)};
}

/** The first campaign of demo_adv that takes offers: RUNNING and managed by the advertiser. */
export function deliverableCampaign(
  emulator: Emulator,
  account = 'demo_adv',
): number {
  const campaign = [...emulator.account(account).campaigns.values()].find(
    c => c.status === 'RUNNING' && c.maintain_by === 'ADV',
  );
  return campaign!.campaign_id;
}

/** Creates the sheet of `schema` with its headers and `records` as rows, cells as typed. */
export function fill(
  workbook: MemoryWorkbook,
  schema: SheetSchema<never> | SheetSchema<unknown>,
  records: Array<Record<string, CellValue>>,
): void {
  const headers = allColumns(schema as SheetSchema<unknown>).map(c => c.header);
  const sheet =
    workbook.sheet(schema.name) ?? workbook.insertSheet(schema.name);
  sheet.write(1, 1, [
    headers,
    ...records.map(r => headers.map(h => r[h] ?? '')),
  ]);
}

/** A valid CPI New Offers row with tracking. */
export function cpiOffer(
  campaignId: number,
  name: string,
  fields: Record<string, CellValue> = {},
): Record<string, CellValue> {
  return {
    campaign_id: campaignId,
    offer_name: name,
    promote_timezone: 8,
    start_time: 1790000000,
    target_geo: 'US,GB',
    billing_type: 'CPI',
    bid_rate: 1.5,
    target_ad_type: 'REWARDED_VIDEO',
    tracking_method: 'APPSFLYER',
    click_url: `https://track.example.com/click?o=${name}`,
    support_server_click: 'NO',
    ...fields,
  };
}
