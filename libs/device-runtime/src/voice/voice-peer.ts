import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters, RtpPacket } from 'werift';
import type { VoicePeerOptions } from './voice-env';

export type { VoicePeerOptions };

/** Opus at 48 kHz, the one codec every WebRTC browser has and the only one a voice peer offers or takes. */
export const OPUS = { mimeType: 'audio/opus', clockRate: 48_000, channels: 2 } as const;

/** How long a peer waits for its ICE candidates before it sends what it has. */
const GATHER_MS = 3_000;

/**
 * One side of a call's voice, in Node (werift): a peer connection with one audio transceiver, sending `outgoing` and
 * handing every packet it receives to `onPacket`. Used by the alarm worker's bridge for both sides of a call and by
 * the simulated column.
 */
export class VoicePeer {
  readonly pc: RTCPeerConnection;
  /** What this side sends: packets written here go out with this connection's payload type, SSRC and sequence. */
  readonly outgoing = new MediaStreamTrack({ kind: 'audio' });
  private packetListener: ((packet: RtpPacket) => void) | null = null;
  private remote: MediaStreamTrack | null = null;
  private readonly trackListeners: ((track: MediaStreamTrack) => void)[] = [];

  constructor(options: VoicePeerOptions = {}) {
    this.pc = new RTCPeerConnection({
      codecs: { audio: [new RTCRtpCodecParameters(OPUS)], video: [] },
      iceServers: options.iceServers ?? [],
      icePortRange: options.portRange,
      iceAdditionalHostAddresses: options.additionalHostAddresses,
      iceUseIpv6: false,
    });
    // On the connection, not a transceiver: answering, the remote track may come with the offer, before ours is set.
    this.pc.onTrack.subscribe((track) => {
      if (track.kind !== 'audio' || this.remote) return;
      this.remote = track;
      for (const listener of this.trackListeners.splice(0)) listener(track);
      track.onReceiveRtp.subscribe((packet) => this.packetListener?.(RtpPacket.deSerialize(packet.serialize())));
    });
  }

  /** Hands each packet the other side sends to `listener` (a copy the listener may keep or forward). */
  onPacket(listener: (packet: RtpPacket) => void): void {
    this.packetListener = listener;
  }

  /** Runs `listener` with the other side's track once it arrives (a recorder). */
  onRemoteTrack(listener: (track: MediaStreamTrack) => void): void {
    if (this.remote) listener(this.remote);
    else this.trackListeners.push(listener);
  }

  /** The offer of this side, its candidates gathered. */
  async offer(): Promise<string> {
    this.addAudio();
    await this.pc.setLocalDescription(await this.pc.createOffer());
    return this.gathered();
  }

  /** Takes the other side's answer to our offer. */
  async accept(answerSdp: string): Promise<void> {
    await this.pc.setRemoteDescription({ type: 'answer', sdp: answerSdp });
  }

  /** Answers the other side's offer, our candidates gathered. */
  async answer(offerSdp: string): Promise<string> {
    await this.pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
    const transceiver = this.pc.getTransceivers().find((t) => t.kind === 'audio');
    if (!transceiver) throw new Error('the offer has no audio');
    transceiver.setDirection('sendrecv');
    await transceiver.sender.replaceTrack(this.outgoing);
    await this.pc.setLocalDescription(await this.pc.createAnswer());
    return this.gathered();
  }

  /** Sends one packet (a copy: writing changes its header to this connection's). */
  send(packet: RtpPacket): void {
    this.outgoing.writeRtp(RtpPacket.deSerialize(packet.serialize()));
  }

  /** Resolves once the media path is up; rejects when it fails or is closed first, or after `timeoutMs`. */
  connected(timeoutMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.pc.connectionState === 'connected') return resolve();
      const timer = setTimeout(() => {
        subscription.unSubscribe();
        reject(new Error('no media path'));
      }, timeoutMs);
      const subscription = this.pc.connectionStateChange.subscribe((state) => {
        if (state === 'connected' || state === 'failed' || state === 'closed') {
          clearTimeout(timer);
          subscription.unSubscribe();
          if (state === 'connected') resolve();
          else reject(new Error(`media path ${state}`));
        }
      });
    });
  }

  /** Runs `listener` once when the connection fails or closes after it was up. */
  onLost(listener: () => void): void {
    const subscription = this.pc.connectionStateChange.subscribe((state) => {
      if (state === 'failed' || state === 'closed' || state === 'disconnected') {
        subscription.unSubscribe();
        listener();
      }
    });
  }

  async close(): Promise<void> {
    this.outgoing.stop();
    await this.pc.close().catch(() => undefined);
  }

  private addAudio(): void {
    this.pc.addTransceiver(this.outgoing, { direction: 'sendrecv' });
  }

  private async gathered(): Promise<string> {
    if (this.pc.iceGatheringState !== 'complete') {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, GATHER_MS);
        const subscription = this.pc.iceGatheringStateChange.subscribe((state) => state === 'complete' && done());
        function done() {
          clearTimeout(timer);
          subscription.unSubscribe();
          resolve();
        }
      });
    }
    const sdp = this.pc.localDescription?.sdp;
    if (!sdp) throw new Error('no local description');
    return sdp;
  }
}

/** A sound sent into a peer as it plays: ffmpeg encodes it to Opus RTP on a loopback port the peer forwards from. */
export interface VoiceSource {
  /** Packets sent so far. */
  readonly sent: number;
  stop(): void;
}

/**
 * Plays `input` (ffmpeg input arguments: a file looped, a lavfi tone) into `peer` in real time, until stopped: a
 * simulated device's recorded voice, a test agent's microphone.
 */
export async function playInto(peer: VoicePeer, input: readonly string[]): Promise<VoiceSource> {
  const socket = createSocket('udp4');
  let sent = 0;
  socket.on('message', (buffer) => {
    peer.send(RtpPacket.deSerialize(buffer));
    sent++;
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const target = `rtp://127.0.0.1:${socket.address().port}`;
  const encoder = spawn(
    'ffmpeg',
    ['-v', 'error', '-re', ...input, '-c:a', 'libopus', '-ar', '48000', '-ac', '2', '-b:a', '32k', '-f', 'rtp', target],
    {
      stdio: 'ignore',
    },
  );
  encoder.on('error', () => undefined);
  return {
    get sent() {
      return sent;
    },
    stop() {
      encoder.kill('SIGKILL');
      socket.close();
    },
  };
}
