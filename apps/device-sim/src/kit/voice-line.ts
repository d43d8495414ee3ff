import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { VoicePeer, playInto, type VoiceSource } from '@sc/device-runtime/voice/voice-peer';

/** What a simulated device's end of a call heard and said. */
export interface VoiceLineStats {
  callId: string;
  /** Audio packets that came from the platform (what the column's speaker played). */
  heardPackets: number;
  /** Whether the media path came up. */
  connected: boolean;
  ended: boolean;
}

/** Where the simulator keeps the voice its devices speak with (made once, with espeak-ng or, failing it, ffmpeg). */
const VOICE_DIR = join(process.env.SIM_VOICE_DIR ?? join('var', 'sim'));
const VOICE_TEXT = 'This is the alarm column. I need help here, please send someone.';

let voiceFile: string | null = null;

/** The recorded voice a simulated device speaks with: a WAV made with espeak-ng (a tone from ffmpeg where it is missing). */
export function deviceVoice(): string {
  if (voiceFile && existsSync(voiceFile)) return voiceFile;
  mkdirSync(VOICE_DIR, { recursive: true });
  const file = join(VOICE_DIR, 'column-voice.wav');
  if (!existsSync(file)) {
    const spoken = spawnSync('espeak-ng', ['-w', file, VOICE_TEXT], { stdio: 'ignore' });
    if (spoken.status !== 0 || !existsSync(file)) {
      const tone = spawnSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=3', file], { stdio: 'ignore' });
      if (tone.status !== 0) throw new Error('neither espeak-ng nor ffmpeg could make the simulated voice');
    }
  }
  voiceFile = file;
  return file;
}

/**
 * A simulated device's end of a call's voice: it answers the platform's WebRTC offer, speaks its recorded voice in a
 * loop (ffmpeg encodes it to Opus RTP, which goes out through the peer) and counts what it hears.
 */
export class VoiceLine {
  readonly stats: VoiceLineStats;
  private readonly peer = new VoicePeer();
  private source: VoiceSource | null = null;

  /** `lost` runs when the platform's side drops without hanging up. */
  constructor(callId: string, lost?: () => void) {
    this.stats = { callId, heardPackets: 0, connected: false, ended: false };
    this.peer.onPacket(() => this.stats.heardPackets++);
    this.lost = lost;
  }

  private readonly lost: (() => void) | undefined;

  /** Answers the platform's offer and starts speaking once the media path is up. */
  async answer(offerSdp: string): Promise<string> {
    const sdp = await this.peer.answer(offerSdp);
    void this.peer
      .connected(15_000)
      .then(() => {
        this.stats.connected = true;
        this.peer.onLost(() => {
          if (!this.stats.ended) this.lost?.();
        });
        return this.speak();
      })
      .catch(() => undefined);
    return sdp;
  }

  async hangUp(): Promise<void> {
    if (this.stats.ended) return;
    this.stats.ended = true;
    this.source?.stop();
    await this.peer.close();
  }

  private async speak(): Promise<void> {
    if (this.stats.ended) return;
    const source = await playInto(this.peer, ['-stream_loop', '-1', '-i', deviceVoice()]);
    this.source = source;
    if (this.stats.ended) source.stop();
  }
}
