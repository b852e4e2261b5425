/**
 * The response envelope and the failure codes. The document gives 200, 10000 and 11423; the
 * other codes are this emulator's choice (README.md lists them).
 */

export const CODE = {
  SUCCESS: 200,
  /** Field validation failed; data maps each field to its message. */
  VALIDATION: 10000,
  MISSING_HEADER: 10001,
  BAD_TIMESTAMP: 10002,
  TIMESTAMP_SKEW: 10003,
  UNKNOWN_ACCESS_KEY: 10004,
  BAD_TOKEN: 10005,
  PERMISSION_DENIED: 10006,
  MAINTAINED_BY_AM: 10007,
  ALREADY_EXISTED: 10008,
  /** A budget update broke a budget rule (section 7). */
  BUDGET: 11423,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
} as const;

export type FieldMessages = Record<string, string>;

/** A failure answer: thrown by any step, turned into an envelope by the dispatcher. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly msg: string,
    readonly data: unknown = {},
    /** HTTP status of the answer; the service reports failures in `code`, not in HTTP. */
    readonly httpStatus = 200,
  ) {
    super(msg);
  }
}

export function validationError(fields: FieldMessages): ApiError {
  return new ApiError(CODE.VALIDATION, 'error', fields);
}

export function permissionDenied(field: string, reason: string): ApiError {
  return new ApiError(CODE.PERMISSION_DENIED, 'Permission denied', {
    [field]: reason,
  });
}

export interface Envelope {
  code: number;
  msg: string;
  data: unknown;
}

/** The creative-ad list names the text field `message`; every other operation `msg`. */
export type MessageKey = 'msg' | 'message';

export function success(data: unknown): Envelope {
  return {code: CODE.SUCCESS, msg: 'success', data};
}

export function failure(error: ApiError): Envelope {
  return {code: error.code, msg: error.msg, data: error.data};
}

export function encodeEnvelope(
  envelope: Envelope,
  messageKey: MessageKey,
): Uint8Array {
  const body = {
    code: envelope.code,
    [messageKey]: envelope.msg,
    data: envelope.data,
  };
  return new TextEncoder().encode(JSON.stringify(body));
}
