// An MSW handler for the notification event stream that the test drives:
// each connection gets a body the test writes events to, or closes.
import { http } from 'msw';

import type { Notification } from '../../../lib/types.ts';

interface Connection {
  request: Request;
  write: (text: string) => void;
  close: () => void;
}

function connection(request: Request) {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  const conn: Connection = {
    request,
    write: (text) => {
      controller.enqueue(encoder.encode(text));
    },
    close: () => {
      controller.close();
    },
  };
  conn.write('retry: 1000\n\n');
  const response = new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  return { conn, response };
}

/** `answer` may refuse a connection with its own response (e.g. a 401). */
export function notificationStream(answer?: (request: Request) => Response | undefined) {
  const connections: Connection[] = [];
  const requests: Request[] = [];
  const handler = http.get('/api/notifications', ({ request }) => {
    requests.push(request);
    const refused = answer?.(request);
    if (refused) return refused;
    const { conn, response } = connection(request);
    connections.push(conn);
    return response;
  });
  const last = () => {
    const conn = connections.at(-1);
    if (!conn) throw new Error('no stream connection');
    return conn;
  };
  return {
    handler,
    requests,
    connections,
    /** Sends one notification on the newest connection, with its seq as the event id. */
    send: (n: Notification) => {
      last().write(`id: ${String(n.seq ?? '')}\ndata: ${JSON.stringify(n)}\n\n`);
    },
    /** Sends a change hint on the newest connection, as the server does: no event id. */
    hint: (hint: unknown) => {
      last().write(`event: hint\ndata: ${JSON.stringify(hint)}\n\n`);
    },
    /** The server ends the newest connection. */
    end: () => {
      last().close();
    },
  };
}
