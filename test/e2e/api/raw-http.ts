import { connect } from 'node:net';

/** One HTTP/1.1 answer read off a raw socket: header names lower-cased, repeated ones kept. */
export interface RawAnswer {
  status: number;
  headers: Map<string, string[]>;
  /** The body as text (chunked transfer decoded). */
  text: string;
  /** The body parsed as JSON, or undefined when it is empty or not JSON. */
  json: unknown;
}

/**
 * Writes `request` as bytes to a fresh connection and reads the answer until the server closes it.
 * fetch cannot send what these tests need (a repeated header, a control character in a header,
 * a Content-Length that lies, invalid UTF-8), so they speak HTTP/1.1 themselves; every request
 * should carry `Connection: close` (or be one the server closes after), so the end is the close.
 * `endEarly` half-closes the socket after writing, for a body shorter than its Content-Length.
 */
export function rawRequest(
  url: string,
  request: Buffer | string,
  options: { endEarly?: boolean } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.write(request);
      if (options.endEarly) socket.end();
    });
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may reset the connection right after writing its answer; keep what arrived.
      if (error.code === 'ECONNRESET' && chunks.length > 0) return;
      reject(error);
    });
    socket.on('close', () => {
      try {
        resolve(parseAnswer(Buffer.concat(chunks)));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

function parseAnswer(bytes: Buffer): RawAnswer {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no complete answer: ${JSON.stringify(bytes.toString('latin1'))}`);
  const [statusLine = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1]);
  if (!Number.isInteger(status)) throw new Error(`not an HTTP/1.1 status line: ${statusLine}`);
  const headers = new Map<string, string[]>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  let body = bytes.subarray(end + 4);
  if (headers.get('transfer-encoding')?.[0] === 'chunked') body = unchunk(body);
  else if (headers.has('content-length')) body = body.subarray(0, Number(headers.get('content-length')![0]));
  const text = body.toString('utf8');
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status, headers, text, json };
}

function unchunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    const size = parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) return Buffer.concat(parts);
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/**
 * An HTTP/1.1 request as bytes: the request line, `Host`, `Connection: close`, the given header
 * lines (repeats allowed) and, with a body, its Content-Length unless a header line sets one.
 */
export function httpRequest(
  method: string,
  target: string,
  headerLines: string[],
  body?: Buffer | string,
): Buffer {
  const bytes = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8');
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', ...headerLines];
  if (bytes && !headerLines.some((line) => /^content-length:/i.test(line))) {
    lines.push(`Content-Length: ${bytes.length}`);
  }
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), bytes ?? Buffer.alloc(0)]);
}
