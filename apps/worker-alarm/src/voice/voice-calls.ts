import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import type Redis from 'ioredis';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { CallState, DeviceFamily, VOICE_TIMING, type AlarmTalkMessage } from '@sc/contracts';
import type { DeviceSession, DeviceWorker } from '@sc/device-runtime';
import { VoiceBridge } from '@sc/device-runtime/voice/voice-bridge';
import { voiceChannels, type VoiceJoinMessage, type VoiceJoinReply, type VoicePeerOptions } from '@sc/device-runtime/voice/voice-env';

/** How long a replica's claim on a call's voice lasts unless it renews it (it does, every third of it). */
const OWNER_TTL_MS = 30_000;
/** How often the bridges' calls are read to end the voice of calls that ended. */
const CHECK_MS = 1_000;

interface LiveCall {
  bridge: VoiceBridge;
  session: DeviceSession;
  columnAnswer: Promise<void>;
  /** Set as soon as the call's voice starts ending: nothing joins it any more. */
  ending: boolean;
}

/** Deletes a claim only when this replica holds it. */
const RELEASE_CLAIM = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * The voice of the alarm calls (docs/alarm-intercom.md, Voice). When the agent on a connected call joins from the
 * console, one replica claims the call (a Redis key it renews) and holds its VoiceBridge: the column's side offered
 * to the column over MQTT (`talk` command, its `talk` event answering), the agent's side answering the browser. The
 * bridge ends when the call does (hung up, the agent gone offline) or the column hangs up; its recording is then
 * noted on the call.
 */
export class VoiceCalls {
  private readonly calls = new Map<string, LiveCall>();
  /** Calls whose bridge is being opened: a second join waits for the same one. */
  private readonly opening = new Map<string, Promise<LiveCall>>();
  private readonly workerId = randomUUID();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly pool: Pool,
    private readonly redis: Redis,
    private readonly subscriber: Redis,
    private readonly worker: () => DeviceWorker | null,
    private readonly logger: Logger,
    /** Publishes the incidents as they are now (the call log reads the recording then). */
    private readonly announce: (incidentIds: readonly string[]) => Promise<void>,
    private readonly options: { prefix: string; recordDir: string; peer: VoicePeerOptions },
  ) {}

  async start(): Promise<void> {
    const channel = voiceChannels.join(this.options.prefix);
    this.subscriber.on('message', (from: string, text: string) => {
      if (from !== channel || this.stopped) return;
      let message: VoiceJoinMessage;
      try {
        message = JSON.parse(text) as VoiceJoinMessage;
      } catch {
        return;
      }
      this.join(message).catch((err: Error) => this.logger.warn({ err: err.message, callId: message.callId }, 'voice join not answered'));
    });
    await this.subscriber.subscribe(channel);
    this.timer = setInterval(() => void this.check(), CHECK_MS);
    this.timer.unref();
  }

  /** Ends every call's voice here, each recording noted. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.subscriber.unsubscribe().catch(() => undefined);
    await Promise.all([...this.calls.keys()].map((id) => this.end(id)));
  }

  /** Calls whose voice is held here (health, tests). */
  get live(): number {
    return this.calls.size;
  }

  private async join(message: VoiceJoinMessage): Promise<void> {
    const { callId, requestId } = message;
    const owner = voiceChannels.owner(this.options.prefix, callId);
    const mine =
      this.calls.has(callId) ||
      this.opening.has(callId) ||
      (await this.redis.set(owner, this.workerId, 'PX', OWNER_TTL_MS, 'NX')) === 'OK' ||
      (await this.redis.get(owner)) === this.workerId;
    // Another replica holds this call's voice and answers.
    if (!mine) return;
    const reply = await this.answer(message).catch((err: Error) => {
      this.logger.warn({ err: err.message, callId }, 'voice join failed');
      return { error: 'alarmVoiceUnavailable' } as const;
    });
    if ('error' in reply && !this.calls.has(callId) && !this.opening.has(callId)) await this.releaseClaim(callId);
    await this.redis.publish(voiceChannels.reply(this.options.prefix, requestId), JSON.stringify(reply));
  }

  private async answer(message: VoiceJoinMessage): Promise<VoiceJoinReply> {
    const { rows } = await this.pool.query<{ device_code: string }>(
      `SELECT device_code FROM alarm_call WHERE id = $1 AND state = $2 AND agent_user_id = $3`,
      [message.callId, CallState.Connected, message.userId],
    );
    if (rows.length === 0) return { error: 'alarmCallNotConnected' };
    let call = this.calls.get(message.callId);
    if (!call) {
      let opening = this.opening.get(message.callId);
      if (!opening) {
        opening = this.open(message.callId, rows[0].device_code);
        this.opening.set(message.callId, opening);
        opening.then(
          () => this.opening.delete(message.callId),
          () => this.opening.delete(message.callId),
        );
      }
      call = await opening;
    }
    try {
      await call.columnAnswer;
    } catch {
      await this.end(message.callId);
      return { error: 'alarmVoiceColumnSilent' };
    }
    if (call.ending) return { error: 'alarmCallNotConnected' };
    return { sdp: await call.bridge.answerAgent(message.sdp) };
  }

  /** Opens the call's bridge and offers the column its side; `columnAnswer` settles with the column's answer. */
  private async open(callId: string, code: string): Promise<LiveCall> {
    const worker = this.worker();
    if (!worker) throw new Error('the worker is not running');
    const bridge = new VoiceBridge(callId, { ...this.options.peer, recordDir: this.options.recordDir, logger: this.logger });
    let answered!: (sdp: string) => void;
    let refused!: (reason: string) => void;
    const columnSdp = new Promise<string>((resolve, reject) => {
      answered = resolve;
      refused = (reason) => reject(new Error(reason));
    });
    const session = await worker.openSession(DeviceFamily.Alarm, code, (event) => {
      if (event.callId !== callId) return;
      if (event.kind === 'talk') answered((event as unknown as AlarmTalkMessage).sdp);
      else if (event.kind === 'talkEnd') {
        refused(String(event.reason ?? 'hung up'));
        // The column hung up during the call: its voice ends here; the agent sees the line drop and hangs up.
        if (this.calls.get(callId)?.bridge === bridge) void this.end(callId);
      }
    });
    const columnAnswer = (async () => {
      const offer = await bridge.deviceOffer();
      // The call is listed by then (the offer's gathering is the first wait): it may have started ending meanwhile.
      if (bridge.closing || this.calls.get(callId)?.ending) throw new Error('the call ended');
      await session.send('talk', { callId, sdp: offer }, VOICE_TIMING.columnAnswerMs);
      const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer')), VOICE_TIMING.columnAnswerMs).unref());
      await bridge.deviceAnswered(await Promise.race([columnSdp, timeout]));
    })();
    columnAnswer.catch(() => undefined);
    const call: LiveCall = { bridge, session, columnAnswer, ending: false };
    this.calls.set(callId, call);
    return call;
  }

  /** Ends the voice of calls no longer connected, and renews the claims on the others. */
  private async check(): Promise<void> {
    if (this.calls.size === 0) return;
    const ids = [...this.calls.keys()];
    try {
      const { rows } = await this.pool.query<{ id: string }>(`SELECT id::text FROM alarm_call WHERE id = ANY($1::bigint[]) AND state = $2`, [
        ids,
        CallState.Connected,
      ]);
      const connected = new Set(rows.map((r) => r.id));
      for (const id of ids) if (!connected.has(id)) void this.end(id);
    } catch (err) {
      this.logger.debug({ err: (err as Error).message }, 'voice check failed');
    }
    // Renewed whatever the database said: a claim lapses only with this replica.
    for (const id of this.calls.keys()) await this.redis.pexpire(voiceChannels.owner(this.options.prefix, id), OWNER_TTL_MS).catch(() => undefined);
  }

  /** Hangs the column up, closes the bridge and notes its recording on the call. */
  private async end(callId: string): Promise<void> {
    const call = this.calls.get(callId);
    if (!call || call.ending) return;
    call.ending = true;
    await call.session.send('hangUp', { callId }, VOICE_TIMING.columnAnswerMs).catch(() => undefined);
    await call.session.close();
    try {
      const recording = await call.bridge.finish();
      if (recording) {
        const { rows } = await this.pool.query<{ incident_id: string | null }>(
          `UPDATE alarm_call SET recording_file = $2, recording_seconds = $3, recording_size = $4 WHERE id = $1 RETURNING incident_id::text`,
          [callId, basename(recording.path), recording.seconds, recording.fileSize],
        );
        const incidents = rows.flatMap((r) => (r.incident_id ? [r.incident_id] : []));
        if (incidents.length > 0) await this.announce(incidents);
      }
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, callId }, 'call recording not stored');
    } finally {
      this.calls.delete(callId);
      await this.releaseClaim(callId);
    }
  }

  private async releaseClaim(callId: string): Promise<void> {
    await this.redis.eval(RELEASE_CLAIM, 1, voiceChannels.owner(this.options.prefix, callId), this.workerId).catch(() => undefined);
  }
}
