// A Server-Sent Events client over fetch (spec §7, STYLE.md): it sends the
// bearer token, refreshes it once on a 401, reconnects after the server's
// `retry` (SSE_RECONNECT_MS until one is sent), resumes with Last-Event-ID and
// stays open in background tabs. Generic: it knows no feature.
import { EventStreamContentType, fetchEventSource } from '@microsoft/fetch-event-source';

import { SSE_RECONNECT_MS } from './constants.ts';

export type StreamState = 'connecting' | 'live' | 'offline';

/** One dispatched event; events without data are not dispatched (as EventSource). */
export interface StreamMessage {
  id: string;
  event: string;
  data: string;
}

export interface EventStreamOptions {
  url: string;
  /** Read before every connection attempt, so a refreshed token is used. */
  getToken: () => string | null;
  /** Called on a 401: the new token, or null to give up. */
  refreshToken: () => Promise<string | null>;
  onMessage: (message: StreamMessage) => void;
  onStateChange?: (state: StreamState) => void;
  /** Aborting it closes the stream for good. */
  signal: AbortSignal;
  /** Resume after this event id on the first connection. */
  lastEventId?: string;
  /** The fetch to use (tests); the global fetch by default. */
  fetch?: typeof fetch;
}

/** Reconnect at once: the token was just refreshed. */
class ReconnectNow extends Error {}
/** Reconnect after the retry delay. */
class ReconnectLater extends Error {}
/** Give up: the token could not be refreshed. */
class GiveUp extends Error {}

function isEventStream(response: Response): boolean {
  return response.ok && (response.headers.get('content-type') ?? '').startsWith(EventStreamContentType);
}

/**
 * Opens the stream; the promise settles once it is closed for good (the
 * signal aborted, or a 401 whose refresh failed).
 */
export async function openEventStream(options: EventStreamOptions): Promise<void> {
  const { url, getToken, refreshToken, onMessage, signal } = options;
  let state: StreamState | null = null;
  const report = (next: StreamState) => {
    if (next === state || (signal.aborted && next !== 'offline')) return;
    state = next;
    options.onStateChange?.(next);
  };
  if (signal.aborted) {
    report('offline');
    return;
  }
  signal.addEventListener('abort', () => { report('offline'); }, { once: true });

  let retryMs = SSE_RECONNECT_MS;
  // The previous attempt met a 401 and refreshed: a second 401 waits a delay.
  let justRefreshed = false;

  const authorizedFetch: typeof fetch = (input, init) => {
    report('connecting');
    const headers = new Headers(init?.headers);
    const token = getToken();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return (options.fetch ?? globalThis.fetch)(input, { ...init, headers });
  };

  const headers: Record<string, string> = { accept: EventStreamContentType };
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;

  try {
    await fetchEventSource(url, {
      headers,
      credentials: 'include',
      signal,
      openWhenHidden: true,
      fetch: authorizedFetch,
      onopen: async (response) => {
        if (response.status === 401) {
          if (justRefreshed) {
            justRefreshed = false;
            throw new ReconnectLater('401 after a refresh');
          }
          const token = await refreshToken();
          if (!token) throw new GiveUp('the token could not be refreshed');
          justRefreshed = true;
          throw new ReconnectNow('token refreshed');
        }
        if (!isEventStream(response)) throw new ReconnectLater(`unexpected response ${String(response.status)}`);
        justRefreshed = false;
        report('live');
      },
      onmessage: (message) => {
        if (message.retry !== undefined) retryMs = message.retry;
        // A body not tied to the signal may still deliver after the abort.
        if (message.data === '' || signal.aborted) return;
        onMessage({ id: message.id, event: message.event, data: message.data });
      },
      onclose: () => {
        // The server ended the stream: reconnect like after any failure.
        throw new ReconnectLater('stream closed');
      },
      onerror: (error: unknown) => {
        report('offline');
        if (error instanceof GiveUp) throw error;
        return error instanceof ReconnectNow ? 0 : retryMs;
      },
    });
  } catch (error) {
    if (!(error instanceof GiveUp)) throw error;
  }
  report('offline');
}
