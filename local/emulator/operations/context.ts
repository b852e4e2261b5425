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
}

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
