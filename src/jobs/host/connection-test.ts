/**
 * "Test connection": one cheap signed call (the first campaign, page 1, limit 1) that says
 * plainly which of the URL, the keys and the clock is wrong, or that all three work.
 */
import {isKeyRefusal} from '../../api/client';
import {ApiError, ConfigError, NetworkError} from '../../api/errors';
import {OPERATIONS} from '../../api/operations';
import type {HttpResponse, HttpTransport, Platform} from '../../platform/ports';
import {counted} from '../../text/wording';
import {accountLabel, connect} from '../connect';
import {EVERY_ACCOUNT} from '../settings-store';
import {unreachableMessage} from './menu-messages';

/** What went wrong, for the sidebar to mark the right field. */
export type ConnectionProblem =
  'settings' | 'network' | 'server' | 'url' | 'keys' | 'clock' | 'api';

export interface ConnectionCheck {
  ok: boolean;
  problem: ConnectionProblem | null;
  /** 'main account' or 'sub-account NAME'. */
  account: string;
  message: string;
}

/** The API refuses a timestamp this far from its clock (part 5, rule 2). */
const MAX_SKEW_SECONDS = 600;
/** A test should answer in seconds: no retry is waited for past this. */
const TEST_DEADLINE_MS = 8000;
/** Clocks this far apart are worth a warning even when the call still passed. */
const SKEW_WARNING_SECONDS = MAX_SKEW_SECONDS / 2;

/** Remembers the last answer, whose Date header tells the server's clock. */
function watching(http: HttpTransport, seen: HttpResponse[]): HttpTransport {
  return {
    send(request) {
      const response = http.send(request);
      seen.push(response);
      return response;
    },
    sendAll(requests) {
      const responses = http.sendAll(requests);
      seen.push(...responses);
      return responses;
    },
  };
}

/** Seconds the server's clock is ahead of ours (negative: behind), when it says. */
function serverSkewSeconds(
  response: HttpResponse | undefined,
  nowMs: number,
): number | undefined {
  const date = response?.headers['date'];
  const serverMs = date ? Date.parse(date) : NaN;
  return Number.isNaN(serverMs)
    ? undefined
    : Math.round((serverMs - nowMs) / 1000);
}

function describeSkew(skew: number): string {
  const way = skew > 0 ? 'ahead of' : 'behind';
  return `the API's clock is ${Math.abs(skew)} s ${way} Google's`;
}

export function testConnection(platform: Platform): ConnectionCheck {
  const seen: HttpResponse[] = [];
  let account = '';
  const check = (
    problem: ConnectionProblem | null,
    message: string,
  ): ConnectionCheck => ({
    ok: problem === null,
    problem,
    account: accountLabel(account),
    message,
  });
  try {
    const connected = connect(
      {...platform, http: watching(platform.http, seen)},
      platform.clock.now() + TEST_DEADLINE_MS,
    );
    account = connected.account;
    const page = connected.client.call<{total?: number}>(
      OPERATIONS.listCampaigns,
      {query: {page: 1, limit: 1}},
    );
    const skew = serverSkewSeconds(seen[seen.length - 1], platform.clock.now());
    const warning =
      skew !== undefined && Math.abs(skew) >= SKEW_WARNING_SECONDS
        ? ` Careful: ${describeSkew(skew)}; at ${MAX_SKEW_SECONDS} s requests are refused.`
        : '';
    return check(
      null,
      `Connected as the ${account === EVERY_ACCOUNT ? 'main account, which acts for every account' : accountLabel(account)}: URL, keys and clock all work (${counted(Number(page?.total ?? 0), 'campaign')} visible).${warning}`,
    );
  } catch (e) {
    if (e instanceof ConfigError) return check('settings', e.message);
    if (e instanceof NetworkError)
      return check('network', unreachableMessage(e));
    if (!(e instanceof ApiError)) throw e;
    const {problem, message} = apiProblem(e, seen[seen.length - 1], platform);
    return check(problem, message);
  }
}

interface Diagnosis {
  problem: ConnectionProblem;
  message: string;
}

/** Which setting an API error points at: the server, the URL, the keys or the clock. */
function apiProblem(
  e: ApiError,
  last: HttpResponse | undefined,
  platform: Platform,
): Diagnosis {
  if (e.code === null && e.httpStatus >= 500) {
    return {
      problem: 'server',
      message: `The API's server is unavailable (${e.message}): try again later.`,
    };
  }
  if (e.code === null || e.httpStatus === 404) {
    return {
      problem: 'url',
      message: `The base URL does not answer like the Advertising Open API (${e.message}). It should be the API's host, without /api/open/v3.`,
    };
  }
  if (isKeyRefusal(e)) return refusalProblem(e, last, platform);
  return {
    problem: 'api',
    message: `The API answered with an error: ${e.message}`,
  };
}

/**
 * A refused signature is the keys' fault unless the clocks differ: the answer's Date header
 * tells by how much, else the API's text may name the timestamp.
 */
function refusalProblem(
  e: ApiError,
  last: HttpResponse | undefined,
  platform: Platform,
): Diagnosis {
  const skew = serverSkewSeconds(last, platform.clock.now());
  if (skew !== undefined && Math.abs(skew) >= MAX_SKEW_SECONDS) {
    return {
      problem: 'clock',
      message: `The API refused the request's timestamp: ${describeSkew(skew)}, and they may differ by less than ${MAX_SKEW_SECONDS} s. The API's server clock needs setting (${e.message}).`,
    };
  }
  if (/timestamp|expired|time/i.test(e.msg) && !/token|key/i.test(e.msg)) {
    return {
      problem: 'clock',
      message: `The API refused the request's timestamp (${e.message}): its clock and Google's differ by ${MAX_SKEW_SECONDS} s or more.`,
    };
  }
  return {
    problem: 'keys',
    message: `The API refused the keys (${e.message}): check the access key and the api key.`,
  };
}
