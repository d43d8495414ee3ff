import type { VoiceJoinRequest } from '@sc/contracts';
import { ICE_GATHER_MS, VOICE_CONNECT_MS, microphoneProblem, startVoice, type VoiceEnvironment, type VoiceStatus } from './voice-session';

/** A microphone track and its stream, as far as the session uses them. */
function fakeMic() {
  const track = { enabled: true, stopped: false, stop: () => void (track.stopped = true) };
  const stream = { getTracks: () => [track], getAudioTracks: () => [track] } as unknown as MediaStream;
  return { track, stream };
}

/** A peer connection that gathers its candidates when told, and whose connection state the test moves. */
class FakePeer extends EventTarget {
  static last: FakePeer | null = null;
  connectionState: RTCPeerConnectionState = 'new';
  iceConnectionState: RTCIceConnectionState = 'new';
  iceGatheringState: RTCIceGatheringState = 'new';
  localDescription: { type: string; sdp: string } | null = null;
  remoteDescription: RTCSessionDescriptionInit | null = null;
  tracks: unknown[] = [];
  closed = false;
  ontrack: ((event: { streams: MediaStream[]; track: unknown }) => void) | null = null;
  onconnectionstatechange: (() => void) | null = null;
  oniceconnectionstatechange: (() => void) | null = null;
  constructor(readonly configuration: RTCConfiguration) {
    super();
    FakePeer.last = this;
  }
  addTrack(track: unknown) {
    this.tracks.push(track);
  }
  async createOffer() {
    return { type: 'offer', sdp: 'v=0 offer' };
  }
  async setLocalDescription(description: { type: string; sdp: string }) {
    this.localDescription = description;
    this.iceGatheringState = 'gathering';
  }
  async setRemoteDescription(description: RTCSessionDescriptionInit) {
    this.remoteDescription = description;
  }
  close() {
    this.closed = true;
    this.connectionState = 'closed';
  }
  gather() {
    this.localDescription = { type: 'offer', sdp: 'v=0 offer a=candidate' };
    this.iceGatheringState = 'complete';
    this.dispatchEvent(new Event('icegatheringstatechange'));
  }
  move(state: RTCPeerConnectionState) {
    this.connectionState = state;
    this.onconnectionstatechange?.();
  }
}

function setUp(overrides: Partial<VoiceEnvironment> = {}) {
  const mic = fakeMic();
  const joins: VoiceJoinRequest[] = [];
  const statuses: VoiceStatus[] = [];
  const remote: (MediaStream | null)[] = [];
  const local: (MediaStream | null)[] = [];
  const env: VoiceEnvironment = {
    Peer: FakePeer as unknown as VoiceEnvironment['Peer'],
    mediaDevices: { getUserMedia: jest.fn(async () => mic.stream) },
    secure: true,
    config: async () => ({ iceServers: [{ urls: 'stun:stun.example:3478' }] }),
    join: async (body) => {
      joins.push(body);
      return { sdp: 'v=0 answer' };
    },
    ...overrides,
  };
  const handlers = {
    status: (s: VoiceStatus) => statuses.push(s),
    local: (s: MediaStream | null) => local.push(s),
    remote: (s: MediaStream | null) => remote.push(s),
  };
  return { mic, joins, statuses, remote, local, env, handlers, state: () => statuses.at(-1) };
}

const flush = async () => {
  for (let i = 0; i < 10; i += 1) await Promise.resolve();
};

describe('the voice of a connected call', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    FakePeer.last = null;
  });
  afterEach(() => jest.useRealTimers());

  it('offers with its candidates gathered, sets the answer, and talks once connected', async () => {
    const t = setUp();
    startVoice('call-1', t.env, t.handlers);
    expect(t.state()).toMatchObject({ state: 'connecting' });
    await flush();
    const peer = FakePeer.last!;
    expect(peer.configuration).toEqual({ iceServers: [{ urls: 'stun:stun.example:3478' }] });
    expect(peer.tracks).toEqual([t.mic.track]);
    expect(t.local).toEqual([t.mic.stream]);
    // Not sent before gathering completes.
    expect(t.joins).toEqual([]);
    peer.gather();
    await flush();
    expect(t.joins).toEqual([{ callId: 'call-1', sdp: 'v=0 offer a=candidate' }]);
    expect(peer.remoteDescription).toEqual({ type: 'answer', sdp: 'v=0 answer' });
    const stream = {} as MediaStream;
    peer.ontrack?.({ streams: [stream], track: {} });
    expect(t.remote).toEqual([stream]);
    peer.move('connected');
    expect(t.state()).toMatchObject({ state: 'talking', problem: null });
    // Connected in time: no failure later.
    jest.advanceTimersByTime(VOICE_CONNECT_MS * 2);
    expect(t.state()).toMatchObject({ state: 'talking' });
  });

  it('sends what it has after ICE_GATHER_MS when gathering does not complete', async () => {
    const t = setUp();
    startVoice('call-1', t.env, t.handlers);
    await flush();
    jest.advanceTimersByTime(ICE_GATHER_MS - 1);
    await flush();
    expect(t.joins).toEqual([]);
    jest.advanceTimersByTime(1);
    await flush();
    expect(t.joins).toEqual([{ callId: 'call-1', sdp: 'v=0 offer' }]);
  });

  it('fails with Reconnect on a dropped or failed connection, talks again if it comes back, and releases on failure', async () => {
    const t = setUp();
    startVoice('call-1', t.env, t.handlers);
    await flush();
    const peer = FakePeer.last!;
    peer.gather();
    await flush();
    peer.move('connected');
    peer.move('disconnected');
    expect(t.state()).toMatchObject({ state: 'failed', problem: 'lost' });
    expect(peer.closed).toBe(false);
    peer.move('connected');
    expect(t.state()).toMatchObject({ state: 'talking' });
    peer.move('failed');
    expect(t.state()).toMatchObject({ state: 'failed', problem: 'lost' });
    expect(peer.closed).toBe(true);
    expect(t.mic.track.stopped).toBe(true);
    expect(t.local.at(-1)).toBeNull();
  });

  it('fails when the connection does not come up in time', async () => {
    const t = setUp();
    startVoice('call-1', t.env, t.handlers);
    await flush();
    FakePeer.last!.gather();
    await flush();
    jest.advanceTimersByTime(VOICE_CONNECT_MS);
    expect(t.state()).toMatchObject({ state: 'failed', problem: 'lost' });
    expect(FakePeer.last!.closed).toBe(true);
  });

  it("says the server's message when the join is refused", async () => {
    const t = setUp({
      join: async () => {
        throw new Error('You are not on this call');
      },
    });
    startVoice('call-1', t.env, t.handlers);
    await flush();
    FakePeer.last!.gather();
    await flush();
    expect(t.state()).toEqual({ state: 'failed', problem: 'refused', message: 'You are not on this call' });
    expect(FakePeer.last!.closed).toBe(true);
    expect(t.mic.track.stopped).toBe(true);
  });

  it('without a microphone, or without WebRTC, or outside a secure context, says so and offers nothing', async () => {
    const denied = setUp({
      mediaDevices: {
        getUserMedia: async () => {
          throw Object.assign(new Error('denied'), { name: 'NotAllowedError' });
        },
      },
    });
    startVoice('call-1', denied.env, denied.handlers);
    await flush();
    expect(denied.state()).toMatchObject({ state: 'failed', problem: 'noMicrophone' });
    expect(FakePeer.last).toBeNull();

    const old = setUp({ Peer: undefined });
    startVoice('call-1', old.env, old.handlers);
    expect(old.state()).toMatchObject({ state: 'failed', problem: 'unsupported' });

    const plain = setUp({ secure: false, mediaDevices: undefined });
    startVoice('call-1', plain.env, plain.handlers);
    expect(plain.state()).toMatchObject({ state: 'failed', problem: 'insecure' });

    expect(microphoneProblem({ name: 'NotReadableError' })).toBe('micBusy');
    expect(microphoneProblem({ name: 'NotFoundError' })).toBe('noMicrophone');
  });

  it('stopped (the call over, the panel gone): closes, stops the microphone, sends nothing more and says nothing more', async () => {
    const t = setUp();
    const session = startVoice('call-1', t.env, t.handlers);
    await flush();
    const peer = FakePeer.last!;
    const said = t.statuses.length;
    session.stop();
    expect(peer.closed).toBe(true);
    expect(t.mic.track.stopped).toBe(true);
    peer.gather();
    await flush();
    expect(t.joins).toEqual([]);
    expect(t.statuses.length).toBe(said);
  });

  it('a microphone granted after the stop is stopped at once', async () => {
    let grant: (stream: MediaStream) => void = () => undefined;
    const t = setUp({ mediaDevices: { getUserMedia: () => new Promise((resolve) => (grant = resolve)) } });
    const session = startVoice('call-1', t.env, t.handlers);
    session.stop();
    grant(t.mic.stream);
    await flush();
    expect(t.mic.track.stopped).toBe(true);
    expect(FakePeer.last).toBeNull();
  });

  it('mutes the track, and a track still to come starts muted', async () => {
    const t = setUp();
    const session = startVoice('call-1', t.env, t.handlers, { muted: true });
    await flush();
    expect(t.mic.track.enabled).toBe(false);
    session.setMuted(false);
    expect(t.mic.track.enabled).toBe(true);
    session.setMuted(true);
    expect(t.mic.track.enabled).toBe(false);
  });
});
