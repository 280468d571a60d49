import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { SSE_RECONNECT_MS } from './constants.ts';
import { openEventStream, type StreamMessage, type StreamState } from './sse.ts';

const URL_ = 'http://localhost/api/notifications';

/** A `text/event-stream` body the test writes to, chunk by chunk. */
function controlledBody() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    response: () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
    write: (text: string) => { controller.enqueue(encoder.encode(text)); },
    close: () => { controller.close(); },
  };
}

function closedBody(text: string) {
  const body = controlledBody();
  body.write(text);
  body.close();
  return body.response();
}

interface Call {
  authorization: string | null;
  lastEventId: string | null;
  accept: string | null;
  signal: AbortSignal | null | undefined;
}

/** A fake fetch answering each call with the next response, recording headers. */
function fakeFetch(...responses: (() => Response)[]) {
  const calls: Call[] = [];
  const fetch = vi.fn((_input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    calls.push({
      authorization: headers.get('Authorization'),
      lastEventId: headers.get('last-event-id'),
      accept: headers.get('accept'),
      signal: init?.signal,
    });
    const next = responses.shift();
    // Past the scripted answers the server keeps the stream open and silent.
    return Promise.resolve(next ? next() : controlledBody().response());
  });
  return { fetch, calls };
}

function open(fetch: typeof globalThis.fetch, extra: { token?: () => string | null; refresh?: () => Promise<string | null>; lastEventId?: string } = {}) {
  const controller = new AbortController();
  const messages: StreamMessage[] = [];
  const states: StreamState[] = [];
  const done = openEventStream({
    url: URL_,
    getToken: extra.token ?? (() => 'token-1'),
    refreshToken: extra.refresh ?? (() => Promise.resolve(null)),
    onMessage: (m) => messages.push(m),
    onStateChange: (s) => states.push(s),
    signal: controller.signal,
    fetch,
    ...(extra.lastEventId === undefined ? {} : { lastEventId: extra.lastEventId }),
  });
  return { controller, messages, states, done };
}

describe('openEventStream', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends the bearer token and parses messages split across chunks, skipping comments and the retry greeting', async () => {
    const body = controlledBody();
    const { fetch, calls } = fakeFetch(() => body.response());
    const stream = open(fetch);

    body.write('retry: 1000\n\nid: 1\nda');
    body.write('ta: {"deviceName":"W-1"}\n\n: heartbeat\n\n');
    body.write('id: 2\nevent: note\ndata: line one\ndata: line two\n\n');
    await vi.advanceTimersByTimeAsync(0);

    expect(calls[0]).toMatchObject({ authorization: 'Bearer token-1', accept: 'text/event-stream', lastEventId: null });
    expect(stream.messages).toEqual([
      { id: '1', event: '', data: '{"deviceName":"W-1"}' },
      { id: '2', event: 'note', data: 'line one\nline two' },
    ]);
    expect(stream.states).toEqual(['connecting', 'live']);
    stream.controller.abort();
    await stream.done;
  });

  it('refreshes the token on a 401, then reconnects at once with the new one', async () => {
    let token = 'old';
    const refresh = vi.fn(() => {
      token = 'new';
      return Promise.resolve(token);
    });
    const { fetch, calls } = fakeFetch(() => new Response('{"code":"unauthorized"}', { status: 401 }));
    const stream = open(fetch, { token: () => token, refresh });

    await vi.advanceTimersByTimeAsync(0);

    expect(refresh).toHaveBeenCalledTimes(1);
    expect(calls.map((c) => c.authorization)).toEqual(['Bearer old', 'Bearer new']);
    expect(stream.states).toEqual(['connecting', 'offline', 'connecting', 'live']);
    stream.controller.abort();
    await stream.done;
  });

  it('stops when the refresh fails', async () => {
    const { fetch } = fakeFetch(() => new Response(null, { status: 401 }));
    const stream = open(fetch, { refresh: () => Promise.resolve(null) });

    await stream.done;
    await vi.advanceTimersByTimeAsync(10 * SSE_RECONNECT_MS);

    expect(fetch).toHaveBeenCalledTimes(1);
    expect(stream.states.at(-1)).toBe('offline');
  });

  it('waits a delay rather than refreshing again when the new token is refused too', async () => {
    const refresh = vi.fn(() => Promise.resolve('new'));
    const unauthorized = () => new Response(null, { status: 401 });
    const { fetch } = fakeFetch(unauthorized, unauthorized);
    const stream = open(fetch, { refresh });

    await vi.advanceTimersByTimeAsync(0);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(SSE_RECONNECT_MS - 1);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(refresh).toHaveBeenCalledTimes(1);
    stream.controller.abort();
    await stream.done;
  });

  it('reconnects after SSE_RECONNECT_MS when the server fails and sent no retry', async () => {
    const { fetch } = fakeFetch(() => new Response('busy', { status: 503 }));
    const stream = open(fetch);

    await vi.advanceTimersByTimeAsync(SSE_RECONNECT_MS - 1);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(stream.states).toEqual(['connecting', 'offline']);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(stream.states).toEqual(['connecting', 'offline', 'connecting', 'live']);
    stream.controller.abort();
    await stream.done;
  });

  it("honours the server's retry value and resumes with the last event id", async () => {
    const { fetch, calls } = fakeFetch(() => closedBody('retry: 5000\n\nid: 7\ndata: {}\n\n'));
    const stream = open(fetch, { lastEventId: '3' });

    await vi.advanceTimersByTimeAsync(4999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(calls.map((c) => c.lastEventId)).toEqual(['3', '7']);
    stream.controller.abort();
    await stream.done;
  });

  it('reconnects after a network error', async () => {
    const fetch = vi
      .fn<typeof globalThis.fetch>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValue(controlledBody().response());
    const stream = open(fetch);

    await vi.advanceTimersByTimeAsync(SSE_RECONNECT_MS);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(stream.states.at(-1)).toBe('live');
    stream.controller.abort();
    await stream.done;
  });

  it('stops on abort: the request is aborted, nothing reconnects, the state is offline', async () => {
    const body = controlledBody();
    const { fetch, calls } = fakeFetch(() => body.response());
    const stream = open(fetch);
    await vi.advanceTimersByTimeAsync(0);

    stream.controller.abort();
    await stream.done;
    body.write('id: 9\ndata: late\n\n');
    await vi.advanceTimersByTimeAsync(10 * SSE_RECONNECT_MS);

    expect(calls[0]?.signal?.aborted).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(stream.messages).toEqual([]);
    expect(stream.states).toEqual(['connecting', 'live', 'offline']);
  });

  it('does nothing when the signal is already aborted', async () => {
    const { fetch } = fakeFetch();
    const controller = new AbortController();
    controller.abort();
    const states: StreamState[] = [];
    await openEventStream({
      url: URL_,
      getToken: () => 't',
      refreshToken: () => Promise.resolve(null),
      onMessage: () => undefined,
      onStateChange: (s) => states.push(s),
      signal: controller.signal,
      fetch,
    });
    expect(fetch).not.toHaveBeenCalled();
    expect(states).toEqual(['offline']);
  });
});
