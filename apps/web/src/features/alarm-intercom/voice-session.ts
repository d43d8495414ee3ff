import type { VoiceConfig, VoiceJoinAnswer, VoiceJoinRequest } from '@sc/contracts';

/** How long the browser gathers its ICE candidates before it offers what it has (no trickle ICE: one offer, one answer). */
export const ICE_GATHER_MS = 3_000;
/** How long the peer connection may take to connect once the bridge has answered, before the voice counts as failed. */
export const VOICE_CONNECT_MS = 15_000;

/** What the agent's call panel shows of the voice: being set up, flowing, or not (with the problem). */
export type VoiceState = 'connecting' | 'talking' | 'failed';

/**
 * Why there is no voice. `unsupported`: no WebRTC or no microphone API in this browser; `insecure`: the page is not a
 * secure context (the microphone needs HTTPS or localhost); `noMicrophone`: none, or not allowed; `micBusy`: another
 * application holds it; `refused`: the server refused or could not set up the voice (its message says why); `lost`: the
 * connection failed, dropped or never came up; `setup`: the browser could not make its offer or take the answer.
 */
export type VoiceProblem = 'unsupported' | 'insecure' | 'noMicrophone' | 'micBusy' | 'refused' | 'lost' | 'setup';

export interface VoiceStatus {
  state: VoiceState;
  problem: VoiceProblem | null;
  /** The server's message for `refused` (already in the console's language). */
  message: string | null;
}

export const VOICE_CONNECTING: VoiceStatus = { state: 'connecting', problem: null, message: null };

/** A problem that joining again cannot mend: the browser or the page's address has to change. */
export const lastingProblem = (problem: VoiceProblem | null): boolean => problem === 'unsupported' || problem === 'insecure';

/** What a voice session needs from the browser and the API (the tests give fakes). */
export interface VoiceEnvironment {
  Peer: (new (configuration: RTCConfiguration) => RTCPeerConnection) | undefined;
  mediaDevices: Pick<MediaDevices, 'getUserMedia'> | undefined;
  /** `window.isSecureContext`: without it the browser offers no microphone. */
  secure: boolean;
  config(signal: AbortSignal): Promise<VoiceConfig>;
  join(body: VoiceJoinRequest, signal: AbortSignal): Promise<VoiceJoinAnswer>;
}

/** What a session tells its owner: its state, the microphone's stream (for its level) and the column's (to play). */
export interface VoiceHandlers {
  status(status: VoiceStatus): void;
  local(stream: MediaStream | null): void;
  remote(stream: MediaStream | null): void;
}

export interface VoiceSession {
  /** Closes the peer connection and stops the microphone; the session reports nothing more. */
  stop(): void;
  /** Mutes or unmutes the microphone (its track's `enabled`); kept for a track still to come. */
  setMuted(muted: boolean): void;
}

/** The browser as it is. */
export function browserVoiceEnvironment(api: Pick<VoiceEnvironment, 'config' | 'join'>): VoiceEnvironment {
  const ok = typeof window !== 'undefined';
  return {
    Peer: ok && typeof window.RTCPeerConnection === 'function' ? window.RTCPeerConnection : undefined,
    mediaDevices: ok && typeof navigator.mediaDevices?.getUserMedia === 'function' ? navigator.mediaDevices : undefined,
    secure: ok && window.isSecureContext !== false,
    ...api,
  };
}

/** A refused getUserMedia: held by another application, or no microphone / not allowed (everything else). */
export function microphoneProblem(error: unknown): VoiceProblem {
  const name = error instanceof Error || (typeof error === 'object' && error !== null) ? (error as { name?: unknown }).name : undefined;
  return name === 'NotReadableError' || name === 'TrackStartError' || name === 'AbortError' ? 'micBusy' : 'noMicrophone';
}

/** The peer connection's state, from the ICE state where the browser has no `connectionState`. */
function connectionOf(peer: RTCPeerConnection): RTCPeerConnectionState {
  if (peer.connectionState) return peer.connectionState;
  switch (peer.iceConnectionState) {
    case 'connected':
    case 'completed':
      return 'connected';
    case 'checking':
      return 'connecting';
    case 'disconnected':
    case 'failed':
    case 'closed':
      return peer.iceConnectionState;
    default:
      return 'new';
  }
}

/** Resolves once ICE gathering is complete, after `ms` at most (the offer then goes with what it has), or on abort. */
export function iceGathered(peer: RTCPeerConnection, ms: number, signal: AbortSignal): Promise<void> {
  if (peer.iceGatheringState === 'complete' || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      peer.removeEventListener('icegatheringstatechange', onState);
      peer.removeEventListener('icecandidate', onCandidate);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const onState = () => peer.iceGatheringState === 'complete' && done();
    // A null candidate marks the end of gathering (some browsers say it only so).
    const onCandidate = (event: Event) => !(event as RTCPeerConnectionIceEvent).candidate && done();
    const timer = setTimeout(done, ms);
    peer.addEventListener('icegatheringstatechange', onState);
    peer.addEventListener('icecandidate', onCandidate);
    signal.addEventListener('abort', done);
  });
}

/**
 * The agent's side of a connected call's voice (docs/alarm-intercom.md): the microphone, a peer connection with one
 * audio track (sendrecv), an offer with its candidates gathered (at most ICE_GATHER_MS) sent with POST voiceJoin, the
 * bridge's answer set. Talking once the connection is up; failed when it fails or drops (a dropped one that comes back
 * is talking again), when it does not come up within VOICE_CONNECT_MS, and when anything before refuses.
 */
export function startVoice(callId: string, env: VoiceEnvironment, on: VoiceHandlers, { muted = false } = {}): VoiceSession {
  const abort = new AbortController();
  let stopped = false;
  let ended = false;
  let isMuted = muted;
  let peer: RTCPeerConnection | null = null;
  let mic: MediaStream | null = null;
  let connectTimer: ReturnType<typeof setTimeout> | undefined;

  const report = (state: VoiceState, problem: VoiceProblem | null = null, message: string | null = null) => {
    if (!stopped && !ended) on.status({ state, problem, message });
  };
  const release = () => {
    clearTimeout(connectTimer);
    abort.abort();
    if (peer) {
      peer.ontrack = null;
      peer.onconnectionstatechange = null;
      peer.oniceconnectionstatechange = null;
      peer.close();
      peer = null;
    }
    mic?.getTracks().forEach((track) => track.stop());
    mic = null;
  };
  /** The end of this session's voice: released, said once. */
  const fail = (problem: VoiceProblem, message: string | null = null) => {
    if (stopped || ended) return;
    report('failed', problem, message);
    ended = true;
    release();
    on.local(null);
    on.remote(null);
  };

  const follow = (connection: RTCPeerConnection) => {
    if (stopped || ended || peer !== connection) return;
    switch (connectionOf(connection)) {
      case 'connected':
        clearTimeout(connectTimer);
        return report('talking');
      case 'disconnected':
        // It may come back by itself (talking again); Reconnect starts over.
        return report('failed', 'lost');
      case 'failed':
      case 'closed':
        return fail('lost');
      default:
        return undefined;
    }
  };

  const run = async () => {
    if (!env.secure) return fail('insecure');
    const Peer = env.Peer;
    if (!Peer || !env.mediaDevices) return fail('unsupported');
    report('connecting');
    let stream: MediaStream;
    try {
      stream = await env.mediaDevices.getUserMedia({ audio: true, video: false });
    } catch (error) {
      return fail(microphoneProblem(error));
    }
    if (stopped || ended) return stream.getTracks().forEach((track) => track.stop());
    mic = stream;
    const track = stream.getAudioTracks()[0];
    if (!track) return fail('noMicrophone');
    track.enabled = !isMuted;
    on.local(stream);

    let config: VoiceConfig;
    try {
      config = await env.config(abort.signal);
    } catch (error) {
      return fail('refused', messageOf(error));
    }
    if (stopped || ended) return undefined;
    const connection = new Peer({ iceServers: config.iceServers });
    peer = connection;
    connection.addTrack(track, stream);
    connection.ontrack = (event) => {
      if (stopped || ended || peer !== connection) return;
      on.remote(event.streams[0] ?? (typeof MediaStream === 'function' ? new MediaStream([event.track]) : null));
    };
    connection.onconnectionstatechange = () => follow(connection);
    connection.oniceconnectionstatechange = () => follow(connection);
    await connection.setLocalDescription(await connection.createOffer());
    await iceGathered(connection, ICE_GATHER_MS, abort.signal);
    if (stopped || ended) return undefined;
    const sdp = connection.localDescription?.sdp;
    if (!sdp) return fail('setup');

    let answer: VoiceJoinAnswer;
    try {
      answer = await env.join({ callId, sdp }, abort.signal);
    } catch (error) {
      return fail('refused', messageOf(error));
    }
    if (stopped || ended) return undefined;
    await connection.setRemoteDescription({ type: 'answer', sdp: answer.sdp });
    if (stopped || ended) return undefined;
    connectTimer = setTimeout(() => connectionOf(connection) !== 'connected' && fail('lost'), VOICE_CONNECT_MS);
    return follow(connection);
  };
  run().catch(() => fail('setup'));

  return {
    stop() {
      if (stopped) return;
      stopped = true;
      release();
    },
    setMuted(value) {
      isMuted = value;
      mic?.getAudioTracks().forEach((track) => (track.enabled = !value));
    },
  };
}

const messageOf = (error: unknown): string | null => (error instanceof Error && error.message ? error.message : null);
