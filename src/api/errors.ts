/**
 * The errors the API client raises. Their messages are one readable line, fit for a row's
 * sync_message, and are built only from the operation, HTTP status, API code, msg and field
 * details: never from headers, so never carrying a key or token.
 */
import {clipped} from '../text/wording';

export type FieldDetails = Record<string, string>;

/** The API answered with a code other than 200 (also under HTTP 200). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly operation: string,
    readonly httpStatus: number,
    readonly code: number | null,
    readonly msg: string,
    readonly details: FieldDetails,
    /**
     * The whole parsed envelope, when there was one: `details` flattens nested data to text,
     * and a reader that needs the answer's own structure (the `already existed` upload
     * answer, whose shape is not shown) reads it here.
     */
    readonly body?: unknown,
  ) {
    super(renderApiError(operation, httpStatus, code, msg, details));
  }

  /** Field details as `field: text; field: text`, or '' when there are none. */
  get detailText(): string {
    return renderDetails(this.details);
  }
}

/** The request never got an answer (DNS, refused, reset, timeout). */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(
    readonly operation: string,
    reason: string,
  ) {
    super(`${operation}: network error: ${reason}`);
  }
}

/**
 * A create whose outcome is unknown: the request may or may not have been applied. The
 * caller must look the record up before sending it again.
 */
export class OutcomeUnknownError extends Error {
  override readonly name = 'OutcomeUnknownError';
  constructor(
    readonly operation: string,
    readonly cause: Error,
  ) {
    // What happens next is the job's to say: a create is looked up, a replace read back.
    super(`${operation}: outcome unknown (${cause.message})`);
  }
}

/** Settings or credentials are missing or malformed; nothing was sent. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * The longest server text an error quotes (a msg, one field's detail): enough for any reason
 * a person reads; a longer one is a dump, cut so the row keeps room for what to do next.
 */
const MAX_QUOTED = 500;

export function renderDetails(details: FieldDetails): string {
  return Object.entries(details)
    .map(([field, text]) => `${field}: ${clipped(String(text), MAX_QUOTED)}`)
    .join('; ');
}

function renderApiError(
  operation: string,
  httpStatus: number,
  code: number | null,
  msg: string,
  details: FieldDetails,
): string {
  const head =
    code === null
      ? `${operation}: HTTP ${httpStatus}`
      : `${operation}: code ${code}${httpStatus === 200 ? '' : ` (HTTP ${httpStatus})`}`;
  const text = msg ? ` ${clipped(msg, MAX_QUOTED)}` : '';
  const fields = renderDetails(details);
  return `${head}${text}${fields ? ` [${fields}]` : ''}`;
}

/**
 * Removes secrets from text that came from outside our control (a platform exception can
 * quote a URL or a header). Keys shorter than 4 characters are not worth hunting for.
 */
export function redact(
  text: string,
  secrets: ReadonlyArray<string | undefined>,
): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('***');
  }
  return out;
}
