/**
 * What the create jobs' unit tests share: the emulator platform with in-memory material
 * files, sheets filled by header as a user would, and the demo account's deliverable campaign.
 */
import type {Emulator} from '../../../local/emulator';
import type {
  CellValue,
  FileBlob,
  FileCheck,
  FileFacts,
  FileRead,
  FileReadOptions,
  FileRef,
  FileRefusal,
  FileSource,
  FileWanted,
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

/**
 * Material files by Drive id or URL, inspected and read as the Drive adapter does: a Drive
 * file's size and type are known before it is read, a link's only once read. `onRead` runs
 * before each file is read (a slow Drive, say).
 */
export class MemoryFiles implements FileSource {
  readonly files = new Map<string, MemoryFile | FileRefusal>();
  readonly reads: FileRef[] = [];
  onRead: () => void = () => {};

  add(key: string, name: string, content: string, type = 'image/png'): void {
    this.files.set(key, {name, type, bytes: [...Buffer.from(content)]});
  }

  private lookUp(ref: FileRef): MemoryFile | FileRefusal {
    const key = 'driveId' in ref ? ref.driveId : ref.url;
    return (
      this.files.get(key) ?? {
        ok: false,
        problem: 'missing',
        reason: `Drive file ${key} is not one Offer Desk may open`,
      }
    );
  }

  private tooLarge(file: MemoryFile, options: FileReadOptions) {
    return file.bytes.length > options.maxBytes
      ? ({
          ok: false,
          problem: 'too-large',
          reason: `${file.name} is too large`,
        } as const)
      : undefined;
  }

  inspect(files: readonly FileWanted[], options: FileReadOptions): FileCheck[] {
    return files.map(wanted => {
      if ('url' in wanted.ref) {
        return {
          ok: true,
          ...wanted,
          fileName: null,
          contentType: null,
          bytes: null,
        };
      }
      const file = this.lookUp(wanted.ref);
      if ('ok' in file) return file;
      return (
        this.tooLarge(file, options) ?? {
          ok: true,
          ...wanted,
          fileName: wanted.name
            ? nameWithExtension(wanted.name, file.name)
            : file.name,
          contentType: file.type,
          bytes: file.bytes.length,
        }
      );
    });
  }

  readAll(files: readonly FileFacts[], options: FileReadOptions): FileRead[] {
    return files.map(facts => {
      this.onRead();
      this.reads.push(facts.ref);
      const file = this.lookUp(facts.ref);
      if ('ok' in file) return file;
      const refused = this.tooLarge(file, options);
      if (refused) return refused;
      const name =
        facts.fileName ??
        (facts.name ? nameWithExtension(facts.name, file.name) : file.name);
      const blob: FileBlob = {
        getName: () => name,
        getContentType: () => file.type,
        getBytes: () => file.bytes.map(b => (b > 127 ? b - 256 : b)),
      };
      return {ok: true, blob};
    });
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
