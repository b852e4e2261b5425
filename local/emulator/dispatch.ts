/** Serving one API request against the store: route, read, authenticate, run, envelope. */
import {authenticate} from './auth';
import {
  ApiError,
  encodeEnvelope,
  failure,
  success,
  type Envelope,
} from './envelope';
import {settleClickTests} from './lifecycle';
import type {Account} from './model';
import type {Settings} from './operations/context';
import {readBody, readQuery, type Query, type RequestBody} from './request';
import {findRoute, type Route} from './router';
import type {Store} from './store';

export interface ApiRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: Uint8Array;
}

export interface ReadRequest {
  query: Query;
  route: Route | ApiError;
  /** Undefined when no route was found (the body's form is then unknown). */
  body?: RequestBody;
}

/** Parses what can be parsed without touching the store: for serving and for the log. */
export function readRequest(request: ApiRequest): ReadRequest {
  const query = readQuery(request.url);
  try {
    const route = findRoute(request.method, request.url.pathname);
    return {
      query,
      route,
      body: readBody(request.headers, request.body, route.multipart),
    };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return {query, route: error};
  }
}

export interface ApiAnswer {
  status: number;
  body: Uint8Array;
  envelope: Envelope;
  account: Account | null;
}

/**
 * Failures are checked in order: route, authentication, body form, then the operation's own
 * rules. Only ApiErrors become answers; anything else is an emulator bug and propagates.
 */
export function dispatch(
  store: Store,
  settings: Settings,
  request: ApiRequest,
  read: ReadRequest,
  nowSeconds: number,
): ApiAnswer {
  settleClickTests(store, nowSeconds);
  const {route, body, query} = read;
  const messageKey = route instanceof ApiError ? 'msg' : route.messageKey;
  let account: Account | null = null;
  const answer = (status: number, envelope: Envelope): ApiAnswer => ({
    status,
    body: encodeEnvelope(envelope, messageKey),
    envelope,
    account,
  });
  try {
    if (route instanceof ApiError) throw route;
    account = authenticate(store, request.headers, nowSeconds);
    if (body!.error) throw body!.error;
    const data = route.operation({
      store,
      account,
      params: {...query, ...body!.params},
      form: body!.form,
      nowSeconds,
      settings,
    });
    return answer(200, success(data));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return answer(error.httpStatus, failure(error));
  }
}
