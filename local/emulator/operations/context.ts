/** What every operation receives, and what it returns. */
import type {Params} from '../checks';
import type {Account} from '../model';
import type {FormPart} from '../multipart';
import type {Store} from '../store';

export interface Settings {
  /** Seconds of emulator clock between setting a click URL and its test passing. */
  clickTestSeconds: number;
  /** Largest material upload accepted, in bytes. */
  maxUploadBytes: number;
  /** Where the `already existed` answer puts fmd5 and name (README, assumption 54). */
  duplicateUploadShape: DuplicateUploadShape;
  /** HTTP status of the `already existed` answer. */
  duplicateUploadStatus: number;
  /** Billing types accepted beyond the five (README, assumption 34a). */
  extraBillingTypes: readonly string[];
  /** The offers list shows support_server_click (README, assumption 45a). */
  listsServerClick: boolean | 'boolean';
  /**
   * The offers and campaign lists answer as the vendor's public clients read them (README,
   * assumption 45b): country_code for target_geo, campaign_id as text.
   */
  clientShapes: boolean;
  /** The offers list gives start_time and end_time in ms (README, assumption 45c). */
  listsTimesInMs: boolean;
  /** PUT tracking keeps click_url with scheme and host in lower case (README, 50a). */
  normalisesClickUrl: boolean;
  /** GET sub_adv_account without a name lists the sub-accounts (README, assumption 15a). */
  listsSubAccounts: boolean | 'names';
}

/**
 * The `already existed` answer's variants: the document shows no shape, so tests run the
 * client across every place a real server could put fmd5 and name.
 */
export const DUPLICATE_UPLOAD_SHAPES = [
  'msgAndData',
  'msg',
  'data',
  'dataText',
  'validation',
  'md5Only',
  'nested',
] as const;
export type DuplicateUploadShape = (typeof DUPLICATE_UPLOAD_SHAPES)[number];

export interface OperationContext {
  store: Store;
  /** The authenticated acting account: every lookup is scoped to it. */
  account: Account;
  /** Query string and JSON body merged; the body wins where both name a field. */
  params: Params;
  /** The multipart parts of an upload; empty for every other operation. */
  form: FormPart[];
  nowSeconds: number;
  settings: Settings;
}

/** Returns the `data` of a success envelope, or throws an ApiError. */
export type Operation = (context: OperationContext) => unknown;
