import type { Logger } from 'pino';
import { CAMERA_FAMILY, CameraAccess } from '@sc/contracts';
import type { CameraSource, CameraSources } from './camera-sources';
import { describe, type DescribeOutcome } from './rtsp-describe';

export interface ProbeSettings {
  /** How often every camera is asked (VIDEO_PROBE_INTERVAL_MS): well inside the family's heartbeat. */
  intervalMs: number;
  /** How long one camera may take to answer (VIDEO_PROBE_TIMEOUT_MS). */
  timeoutMs: number;
  /** Cameras asked at once (VIDEO_PROBE_CONCURRENCY). */
  concurrency: number;
}

/** Where what the probe learns goes: the device runtime's intake (DeviceWorker.observeState). */
export type ObserveState = (recordId: number, state: Record<string, unknown>) => void;

/**
 * The state a camera's answer to DESCRIBE stands for: 2xx its stream with the stored login, 401 or 403 the login
 * refused, anything else (404 most often: a wrong path or channel) no stream to be had at that address.
 */
export function stateOf(outcome: DescribeOutcome): Record<string, unknown> {
  if (!outcome.answered) return { online: false };
  if (outcome.status === 401 || outcome.status === 403) return { online: true, access: CameraAccess.Unauthorized };
  if (outcome.status >= 200 && outcome.status < 300) return { online: true, access: CameraAccess.Ok };
  return { online: true, access: CameraAccess.NoStream };
}

const PAGE = 500;

/**
 * Asks every camera, every interval, for its stream's description with the login the console keeps, as a player
 * would: most cameras speak RTSP and nothing else, so this is how the console learns they are up. What each answer
 * means (stateOf) goes into the device runtime like a state the camera had sent, so the rows, the live events and
 * the offline alarms are the runtime's. Passes never overlap: one that runs long (many cameras silent at once) delays
 * the next instead of piling up.
 */
export class CameraProbe {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  /** The last pass's figures, for the logs. */
  lastPass = { cameras: 0, online: 0, ms: 0 };

  constructor(
    private readonly sources: CameraSources,
    private readonly observe: ObserveState,
    private readonly settings: ProbeSettings,
    private readonly logger: Logger,
  ) {}

  start(): void {
    const loop = () => {
      if (this.stopped) return;
      this.running = this.pass()
        .catch((err: Error) => this.logger.warn({ err: err.message }, 'camera probe pass failed'))
        .finally(() => {
          this.running = null;
          if (!this.stopped) this.timer = setTimeout(loop, this.settings.intervalMs);
        });
    };
    loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /**
   * One pass over this worker's cameras: their addresses read first (a page at a time), then asked with every lane
   * busy across the whole fleet, so a page of silent cameras does not hold the next page's answers back.
   */
  async pass(): Promise<void> {
    const started = Date.now();
    const cameras: CameraSource[] = [];
    for (let after = 0; !this.stopped;) {
      const page = await this.sources.page(after, PAGE);
      cameras.push(...page.filter((c) => c.url !== null));
      if (page.length < PAGE) break;
      after = page[page.length - 1].id;
    }
    let online = 0;
    const states = await this.probeAll(cameras, (id, state) => {
      if (state.online) online++;
      this.observe(id, state);
    });
    this.lastPass = { cameras: states, online, ms: Date.now() - started };
    this.logger.debug({ ...this.lastPass, family: CAMERA_FAMILY.family }, 'camera probe pass');
  }

  /** Asks every camera, `concurrency` at a time, handing each answer on as it comes; answers how many were asked. */
  private async probeAll(cameras: readonly CameraSource[], answered: ObserveState): Promise<number> {
    let next = 0;
    let asked = 0;
    const lane = async () => {
      while (next < cameras.length && !this.stopped) {
        const camera = cameras[next++];
        const login = camera.username || camera.password ? { username: camera.username, password: camera.password ?? '' } : null;
        const state = stateOf(await describe(camera.url!, login, this.settings.timeoutMs));
        asked++;
        if (!this.stopped) answered(camera.id, state);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.settings.concurrency, cameras.length) }, lane));
    return asked;
  }
}
