/**
 * The wire between the local Apps Script runtime's UrlFetchApp and the Open API emulator when
 * both run in one process (no sockets). Over loopback HTTP the same shapes travel as real
 * requests and responses.
 */

/** A request as it would cross the network. Header names are lowercase. */
export interface WireRequest {
  method: string;
  /** Absolute URL, e.g. http://127.0.0.1:8080/api/open/v3/offers?page=2 */
  url: string;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** What came back, or how the exchange failed. */
export type WireOutcome =
  | {
      kind: 'response';
      status: number;
      headers: Record<string, string>;
      body: Uint8Array;
      /** Simulated network and server time spent on this exchange, in milliseconds. */
      latencyMs: number;
    }
  | {
      /** The connection dropped; `applied` tells tests whether the server had applied a write. */
      kind: 'dropped';
      applied: boolean;
      latencyMs: number;
    };

/** A synchronous exchange: what UrlFetchApp needs, in-process or over loopback. */
export type WireFetch = (request: WireRequest) => WireOutcome;
