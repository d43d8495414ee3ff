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

/** The state a camera's answer to DESCRIBE stands for. */
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
  /** The last pass's figures, for the logs and the tests. */
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

  /** One pass over every camera. */
  async pass(): Promise<void> {
    const started = Date.now();
    let cameras = 0;
    let online = 0;
    let after = 0;
    for (;;) {
      const page = await this.sources.page(after, PAGE);
      if (page.length === 0 || this.stopped) break;
      after = page[page.length - 1].id;
      const states = await this.probeAll(page.filter((c) => c.url !== null));
      for (const [id, state] of states) {
        cameras++;
        if (state.online) online++;
        this.observe(id, state);
      }
      if (page.length < PAGE) break;
    }
    this.lastPass = { cameras, online, ms: Date.now() - started };
    this.logger.debug({ ...this.lastPass, family: CAMERA_FAMILY.family }, 'camera probe pass');
  }

  private async probeAll(cameras: readonly CameraSource[]): Promise<Map<number, Record<string, unknown>>> {
    const states = new Map<number, Record<string, unknown>>();
    let next = 0;
    const lane = async () => {
      while (next < cameras.length && !this.stopped) {
        const camera = cameras[next++];
        const login = camera.username || camera.password ? { username: camera.username, password: camera.password ?? '' } : null;
        states.set(camera.id, stateOf(await describe(camera.url!, login, this.settings.timeoutMs)));
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.settings.concurrency, cameras.length) }, lane));
    return states;
  }
}
