import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { CameraAccess } from '@sc/contracts';
import { stateOf } from './camera-probe';
import { authorizationFor, describe as describeCamera } from './rtsp-describe';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const LOGIN = { username: 'Mufasa', password: 'Circle Of Life' };
const params = (header: string) => Object.fromEntries([...header.matchAll(/(\w+)="?([^",]+)"?/g)].map((m) => [m[1], m[2]]));

/** A camera that asks for Digest (as Dahua and Haikang cameras do) and answers 200 to the right response only. */
async function digestCamera(): Promise<{ server: Server; url: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((socket) => {
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      for (let end = buffer.indexOf('\r\n\r\n'); end >= 0; end = buffer.indexOf('\r\n\r\n')) {
        const request = buffer.slice(0, end);
        buffer = buffer.slice(end + 4);
        seen.push(request);
        const cseq = /CSeq: (\d+)/.exec(request)![1];
        const auth = /Authorization: (.*)/.exec(request)?.[1];
        let status = '401 Unauthorized\r\nWWW-Authenticate: Digest realm="IP Camera", nonce="abc123", qop="auth"';
        if (auth) {
          const p = params(auth.replace(/^Digest /, ''));
          const ha1 = md5(`${LOGIN.username}:IP Camera:${LOGIN.password}`);
          const ha2 = md5(`DESCRIBE:${p.uri}`);
          const ok = p.response === md5(`${ha1}:abc123:${p.nc}:${p.cnonce}:auth:${ha2}`);
          status = ok ? '200 OK\r\nContent-Type: application/sdp\r\nContent-Length: 4' : '401 Unauthorized';
          socket.write(`RTSP/1.0 ${status}\r\nCSeq: ${cseq}\r\n\r\n${ok ? 'v=0\n' : ''}`);
          continue;
        }
        socket.write(`RTSP/1.0 ${status}\r\nCSeq: ${cseq}\r\n\r\n`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { server, url: `rtsp://127.0.0.1:${port}/cam/realmonitor?channel=1&subtype=0`, seen };
}

describe('the camera probe', () => {
  it('answers a Digest challenge without qop as RFC 2069 computes it, and prefers Digest to Basic', () => {
    const header = authorizationFor(
      ['Basic realm="x"', 'Digest realm="testrealm@host.com", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093"'],
      'GET',
      '/dir/index.html',
      LOGIN,
    )!;
    const ha1 = md5('Mufasa:testrealm@host.com:Circle Of Life');
    const ha2 = md5('GET:/dir/index.html');
    expect(header.startsWith('Digest ')).toBe(true);
    expect(params(header).response).toBe(md5(`${ha1}:dcd98b7102dd2f0e8b11d0f600bfb0c093:${ha2}`));
    expect(authorizationFor(['Basic realm="camera"'], 'DESCRIBE', 'rtsp://h/x', LOGIN)).toBe(
      `Basic ${Buffer.from('Mufasa:Circle Of Life').toString('base64')}`,
    );
    // A challenge it cannot answer (another algorithm, none at all): no login is sent.
    expect(authorizationFor(['Digest realm="r", nonce="n", algorithm="SHA-256"'], 'DESCRIBE', 'rtsp://h/x', LOGIN)).toBeNull();
    expect(authorizationFor([], 'DESCRIBE', 'rtsp://h/x', LOGIN)).toBeNull();
  });

  it('logs in to a Digest camera (qop=auth) and reads its stream, or is refused with a wrong password', async () => {
    const camera = await digestCamera();
    try {
      expect(await describeCamera(camera.url, LOGIN, 2000)).toEqual({ answered: true, status: 200 });
      expect(camera.seen.at(-1)).not.toContain('Circle Of Life');
      expect(await describeCamera(camera.url, { ...LOGIN, password: 'wrong' }, 2000)).toEqual({ answered: true, status: 401 });
      expect(await describeCamera(camera.url, null, 2000)).toEqual({ answered: true, status: 401 });
    } finally {
      camera.server.close();
    }
  });

  it('takes a camera that does not answer in time, refuses the connection or is not an address as not answering', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const started = Date.now();
      expect(await describeCamera(`rtsp://127.0.0.1:${port}/x`, null, 300)).toMatchObject({ answered: false });
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      silent.close();
    }
    expect(await describeCamera(`rtsp://127.0.0.1:${port}/x`, null, 1000)).toMatchObject({ answered: false });
    expect(await describeCamera('not an address', null, 1000)).toEqual({ answered: false, reason: 'bad address' });
  });

  it('reads an answer as the state it stands for', () => {
    expect(stateOf({ answered: true, status: 200 })).toEqual({ online: true, access: CameraAccess.Ok });
    expect(stateOf({ answered: true, status: 401 })).toEqual({ online: true, access: CameraAccess.Unauthorized });
    expect(stateOf({ answered: true, status: 403 })).toEqual({ online: true, access: CameraAccess.Unauthorized });
    expect(stateOf({ answered: true, status: 404 })).toEqual({ online: true, access: CameraAccess.NoStream });
    expect(stateOf({ answered: false, reason: 'closed' })).toEqual({ online: false });
  });
});
