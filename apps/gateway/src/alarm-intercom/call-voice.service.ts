import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type Redis from 'ioredis';
import { CallState, VOICE_TIMING, type AlarmCallRow, type VoiceConfig, type VoiceJoinAnswer } from '@sc/contracts';
import { iceServersFromEnv, voiceChannels, type VoiceJoinMessage, type VoiceJoinReply } from '@sc/device-runtime/voice/voice-env';
import { AppException } from '../common/app-exception';
import type { Caller } from '../common/request-context';
import { SignedLinks } from '../common/signed-links';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { DataSource } from 'typeorm';
import { InjectDb } from '../infra/database';
import { RedisService } from '../infra/redis.service';

/** Where a recording's signed link leads (the console port, no session: an audio element sends none). */
export const CALL_RECORDING_PATH = '/api/alarm/recording';

/** Signed links to a call's recording, naming the call. */
@Injectable()
export class CallRecordingLinks extends SignedLinks {
  protected readonly kind = { path: CALL_RECORDING_PATH, label: 'call-recording' };
}

/**
 * A call's voice from the gateway's side (docs/alarm-intercom.md, Voice): the agent's browser offer goes to the alarm
 * workers on Redis and the bridge's answer comes back on this gateway's own reply channel; the recordings are served
 * from VOICE_RECORDING_DIR through signed links.
 */
@Injectable()
export class CallVoiceService implements OnModuleDestroy {
  private readonly logger = new Logger(CallVoiceService.name);
  private readonly instance = randomUUID();
  private readonly waiting = new Map<string, (reply: VoiceJoinReply) => void>();
  private subscriber: Redis | null = null;
  private subscribed: Promise<void> | null = null;
  readonly recordDir = process.env.VOICE_RECORDING_DIR ?? 'var/recordings';

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDb() private readonly db: DataSource,
    private readonly redis: RedisService,
    private readonly links: CallRecordingLinks,
  ) {}

  voiceConfig(): VoiceConfig {
    return { iceServers: iceServersFromEnv() };
  }

  /** The bridge's answer to the browser's offer, for the agent on the connected call only. */
  async join(caller: Caller, callId: string, sdp: string): Promise<VoiceJoinAnswer> {
    const rows: { id: string }[] = await this.db.query(`SELECT id::text FROM alarm_call WHERE id = $1 AND state = $2 AND agent_user_id = $3`, [
      callId,
      CallState.Connected,
      caller.userId,
    ]);
    if (rows.length === 0) throw AppException.conflict('alarmCallNotConnected');
    await this.listen();
    const requestId = `${this.instance}:${randomUUID()}`;
    const reply = new Promise<VoiceJoinReply>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(requestId);
        resolve({ error: 'alarmVoiceUnavailable' });
      }, VOICE_TIMING.joinMs);
      this.waiting.set(requestId, (answer) => {
        clearTimeout(timer);
        this.waiting.delete(requestId);
        resolve(answer);
      });
    });
    const message: VoiceJoinMessage = { requestId, callId, userId: caller.userId, sdp };
    const workers = await this.redis.client.publish(voiceChannels.join(this.config.redisPrefix), JSON.stringify(message));
    if (workers === 0) this.waiting.get(requestId)?.({ error: 'alarmVoiceUnavailable' });
    const answer = await reply;
    if ('sdp' in answer) return { sdp: answer.sdp };
    if (answer.error === 'alarmCallNotConnected') throw AppException.conflict('alarmCallNotConnected');
    throw AppException.unavailable(answer.error);
  }

  /** The call log's rows with a signed link to each recording (valid for its length and the usual link time). */
  withRecordingLinks(rows: AlarmCallRow[]): AlarmCallRow[] {
    return rows.map((row) =>
      row.recording
        ? {
            ...row,
            recording: { ...row.recording, url: this.links.pathOf(Number(row.id), Math.ceil(row.recording.seconds) + this.links.defaultTtlSeconds) },
          }
        : row,
    );
  }

  /** A recording's file for a signed link: its stream and size; 403 for a bad link, 404 when the call has none. */
  async recording(query: Record<string, unknown>): Promise<{ stream: NodeJS.ReadableStream; size: number }> {
    const callId = this.links.verify(query);
    if (callId === null) throw AppException.forbidden('mediaLinkInvalid');
    const rows: { recording_file: string | null }[] = await this.db.query(`SELECT recording_file FROM alarm_call WHERE id = $1`, [callId]);
    const file = rows[0]?.recording_file;
    if (!file || !/^call-\d+-\d+\.mp3$/.test(file)) throw AppException.notFound();
    const path = join(this.recordDir, file);
    const size = await stat(path).then(
      (s) => s.size,
      () => null,
    );
    if (size === null) throw AppException.notFound();
    return { stream: createReadStream(path), size };
  }

  async onModuleDestroy(): Promise<void> {
    for (const resolve of [...this.waiting.values()]) resolve({ error: 'alarmVoiceUnavailable' });
    this.subscriber?.disconnect();
  }

  /** This gateway's reply channel, subscribed once. */
  private listen(): Promise<void> {
    this.subscribed ??= (async () => {
      const subscriber = this.redis.client.duplicate();
      subscriber.on('error', (err: Error) => this.logger.warn(`Redis (voice replies): ${err.message}`));
      const prefix = voiceChannels.reply(this.config.redisPrefix, `${this.instance}:`);
      subscriber.on('pmessage', (_pattern: string, channel: string, text: string) => {
        const resolve = this.waiting.get(channel.slice(voiceChannels.reply(this.config.redisPrefix, '').length));
        if (!resolve) return;
        try {
          resolve(JSON.parse(text) as VoiceJoinReply);
        } catch {
          resolve({ error: 'alarmVoiceUnavailable' });
        }
      });
      await subscriber.psubscribe(`${prefix}*`);
      this.subscriber = subscriber;
    })().catch((err: Error) => {
      this.subscribed = null;
      throw err;
    });
    return this.subscribed;
  }
}
