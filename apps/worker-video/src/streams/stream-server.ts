import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { StreamUnavailable, TooManyStreams, UnknownCamera, type LiveStreams, type StreamLogger } from './live-streams';

export interface StreamServerOptions {
  /** 0 for any free port (tests). */
  port: number;
  /** 127.0.0.1 unless said otherwise: only the gateway, on the same host or network, may ask. */
  host?: string;
  logger: StreamLogger;
}

export interface StreamServer {
  server: Server;
  /** The port listened on (the one chosen, if 0 was asked for). */
  port: number;
  /** Stops listening and drops open connections; the streams themselves are the caller's to stop. */
  close(): Promise<void>;
}

export type StreamServerError = 'unknown-camera' | 'unavailable' | 'too-many-streams' | 'not-found' | 'method-not-allowed' | 'internal';

const LIVE_PATH = /^\/live\/([^/]+)\/([^/]+)$/;
const SNAPSHOT_PATH = /^\/snapshot\/([^/]+)$/;
const CAMERA_ID = /^[1-9]\d{0,15}$/;

/**
 * The live streams over HTTP, for the gateway to proxy once it has checked that the user may see the camera. This
 * server checks nobody's rights, so it listens on loopback unless deployed behind the gateway on a private network:
 *
 * - `GET /live/<cameraId>/index.m3u8`: the HLS playlist (starts the stream);
 * - `GET /live/<cameraId>/seg-<n>.ts`: a segment it lists;
 * - `GET /snapshot/<cameraId>`: a JPEG of the live picture.
 *
 * Errors are JSON `{ error }`: unknown-camera and not-found 404, unavailable 502 (the camera did not deliver),
 * too-many-streams 503. Nothing is cached: segment names start again from seg-0 whenever a stream restarts.
 */
export async function createStreamServer(streams: LiveStreams, options: StreamServerOptions): Promise<StreamServer> {
  const { logger } = options;
  const server = createServer((req, res) => {
    handle(streams, req, res).catch((err: Error) => {
      const [status, error] = statusOf(err);
      if (error === 'internal') logger.warn({ err: err.message, url: req.url }, 'live stream request failed');
      else logger.debug({ error, url: req.url }, 'live stream request refused');
      fail(res, status, error);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  logger.info({ port }, 'live stream server listening');
  return {
    server,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Players keep connections open between requests; they would hold close() up.
        server.closeAllConnections();
      }),
  };
}

async function handle(streams: LiveStreams, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET') {
    res.setHeader('allow', 'GET');
    return fail(res, 405, 'method-not-allowed');
  }
  const path = (req.url ?? '').split('?', 1)[0];
  const live = LIVE_PATH.exec(path);
  const snapshot = SNAPSHOT_PATH.exec(path);
  const cameraId = cameraIdOf((live ?? snapshot)?.[1]);
  if (cameraId === null) return fail(res, 404, 'not-found');
  if (snapshot) return send(res, 'image/jpeg', await streams.snapshot(cameraId));
  const name = live![2];
  if (name === 'index.m3u8') return send(res, 'application/vnd.apple.mpegurl', Buffer.from(await streams.playlist(cameraId)));
  // LiveStreams serves only segment names (seg-<n>.ts) of a running stream: anything else is null.
  const segment = await streams.segment(cameraId, name);
  return segment ? send(res, 'video/mp2t', segment) : fail(res, 404, 'not-found');
}

function cameraIdOf(text: string | undefined): number | null {
  if (text === undefined || !CAMERA_ID.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : null;
}

function statusOf(err: Error): [number, StreamServerError] {
  if (err instanceof UnknownCamera) return [404, 'unknown-camera'];
  if (err instanceof StreamUnavailable) return [502, 'unavailable'];
  if (err instanceof TooManyStreams) return [503, 'too-many-streams'];
  return [500, 'internal'];
}

function send(res: ServerResponse, contentType: string, body: Buffer): void {
  res.writeHead(200, { 'content-type': contentType, 'content-length': body.length, 'cache-control': 'no-store' });
  res.end(body);
}

function fail(res: ServerResponse, status: number, error: StreamServerError): void {
  if (res.headersSent) return void res.destroy();
  const body = JSON.stringify({ error });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(body);
}
