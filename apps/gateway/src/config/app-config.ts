import { MqttService } from '@sc/contracts';
import { serviceMqttLogin, type MqttLogin } from '@sc/messaging';
import { deviceSecretKey } from '@sc/database';
/**
 * How the platform hands its MQTT accounts to the broker (docs/security.md): Mosquitto's files (MQTT_BROKER_ACCESS_DIR,
 * MQTT_BROKER_PID_FILE), and/or the broker hook that EMQX asks at each login (MQTT_HOOK_PORT, MQTT_HOOK_TOKEN), with
 * EMQX's REST API to end revoked devices' sessions (EMQX_API_URL, EMQX_API_KEY, EMQX_API_SECRET).
 */
export interface BrokerAccessConfig {
  dir?: string;
  pidFile?: string;
  secret: string;
  hook?: { port: number; host: string; token: string };
  emqx?: { url: string; key: string; secret: string };
}

/** Settings come from the environment; every default points at the local services on their standard ports. */
export interface AppConfig {
  port: number;
  host: string;
  uploadPort: number;
  databaseUrl: string;
  redisUrl: string;
  mqttUrl: string;
  /** The gateway's MQTT account (`svc/gateway`), for its health checks. */
  mqttLogin?: MqttLogin;
  /**
   * Where the broker's access files are made (MQTT_BROKER_ACCESS_DIR) from the registry, with the broker's pid file
   * (MQTT_BROKER_PID_FILE, for SIGHUP) and the credential secret (MQTT_CREDENTIAL_SECRET); null when this gateway does
   * not write them (another process does, or the broker takes anonymous clients).
   */
  brokerAccess: BrokerAccessConfig | null;
  /** The installation's credential secret (MQTT_CREDENTIAL_SECRET): device passwords are derived from it. */
  mqttCredentialSecret?: string;
  /** Prefix of every Redis key and channel, so installations (and test runs) sharing a server stay apart. */
  redisPrefix: string;
  sessionTtlSeconds: number;
  /** How long a dispatch's commands may wait for their devices before they expire; a retry gives as long again. */
  dispatchTtlSeconds: number;
  /** Device state changes of one family are pushed to a browser at most once per frame of this many milliseconds. */
  pushFrameMs: number;
  /** How long a user may be without a console open (a reload, a blip) before an alarm agent is taken offline. */
  presenceGraceMs: number;
  consoleOrigin: string;
  /**
   * Host names the gateway answers to (the Host header, port aside); any other gets 421, so a name that an attacker's
   * DNS points at this machine (DNS rebinding) reaches nothing. Empty: every host (ALLOWED_HOSTS=*).
   */
  allowedHosts: string[];
  uploadDir: string;
  /** The broadcast media library (docs/broadcast-media.md). */
  media: MediaConfig;
  /** Workbooks (imports and previews) read at the same time by this process; one per user in any case. */
  importConcurrency: number;
  webDist: string;
  login: { maxFailuresPerUser: number; maxFailuresPerIp: number; windowSeconds: number };
  /**
   * Which X-Forwarded-For hops to believe, so throttling and the operation log see the real client: a number of
   * proxies in front (`1`), or their addresses and CIDR ranges. Never every hop: a client could then pick its own address.
   */
  trustProxy: false | number | string[];
  /** Serve sessions and user pages from the in-process cache (ACCESS_CACHE=off sends every call to PostgreSQL). */
  accessCache: boolean;
  /** Where a lamp is when neither it nor any region above it has a position or time zone (sunrise, sunset, local clock). */
  defaultPlace: { latitude: number; longitude: number; timeZone: string };
  /** Video monitoring (docs/video.md). */
  video: VideoConfig;
  version: string;
}

/** Where the video workers serve their live streams, how long a live link lasts, and the key of camera logins. */
export interface VideoConfig {
  /**
   * The video workers' stream addresses (VIDEO_SERVICE_URLS, comma-separated; http://127.0.0.1:8095 by default). A
   * camera's stream is always asked of the same one (its id modulo their number), so one transcoder serves it.
   */
  serviceUrls: string[];
  /** How long a live view's signed links stay valid (VIDEO_LINK_TTL_SECONDS); the page renews them before. */
  linkTtlSeconds: number;
  /** DEVICE_SECRET_KEY: camera passwords are sealed with it (the video workers open them with the same). */
  secretKey: string;
  secretKeyIsDefault: boolean;
}

/**
 * Signed media links (MEDIA_LINK_SECRET, MEDIA_LINK_TTL_SECONDS, MEDIA_LINK_BASE_URL) and the MP3 content check
 * (FFPROBE_PATH).
 */
export interface MediaConfig {
  /** The HMAC key of signed media links; every replica needs the same one. */
  linkSecret: string;
  /** True while linkSecret is the development default, which anyone can read in the documentation. */
  linkSecretIsDefault: boolean;
  /** How long a signed link for a terminal stays valid. */
  linkTtlSeconds: number;
  /** Put before a link's path for terminals (`https://console.example.org`): the first console origin unless given. */
  linkBaseUrl: string;
  /**
   * Put before an upload link's path for devices (a floor screen's screenshot): MEDIA_UPLOAD_BASE_URL, or
   * MEDIA_LINK_BASE_URL on the upload port (UPLOAD_PORT) unless given.
   */
  uploadBaseUrl: string;
  /** Debian's ffprobe (package ffmpeg) by default, found on PATH. */
  ffprobePath: string;
  /** Debian's ffmpeg (FFMPEG_PATH), found on PATH by default: it takes the cover frame of a floor-screen video. */
  ffmpegPath: string;
}

/** Documented in docs/broadcast-media.md: a production installation sets MEDIA_LINK_SECRET, and start-up says so otherwise. */
export const DEV_MEDIA_LINK_SECRET = 'smart-city-dev-media-link-secret';

export const APP_CONFIG = Symbol('APP_CONFIG');

function int(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) ? n : fallback;
}

/** ALLOWED_HOSTS, or by default the host names of CONSOLE_ORIGIN and this machine's loopback names. */
function allowedHosts(value: string | undefined, consoleOrigin: string): string[] {
  if (value?.trim() === '*') return [];
  const given = value ? value.split(',') : consoleOrigin.split(',').map((origin) => safeHostName(origin.trim()));
  const loopback = value ? [] : ['localhost', '127.0.0.1', '[::1]'];
  return [...new Set([...given, ...loopback].map((h) => h.trim().toLowerCase()).filter(Boolean))];
}

/** `base` (an origin) on another port; `base` as it is when it is not a URL. */
function onPort(base: string, port: number): string {
  try {
    const url = new URL(base);
    url.port = String(port);
    return url.origin;
  } catch {
    return base;
  }
}

function safeHostName(origin: string): string {
  try {
    return new URL(origin).hostname;
  } catch {
    return '';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const port = int(env.PORT, 8080);
  const uploadPort = int(env.UPLOAD_PORT, 8888);
  const consoleOrigin = env.CONSOLE_ORIGIN ?? `http://localhost:${port},http://127.0.0.1:${port}`;
  const linkBaseUrl = (env.MEDIA_LINK_BASE_URL || consoleOrigin.split(',')[0].trim()).replace(/\/+$/, '');
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    uploadPort,
    databaseUrl: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/smart_city',
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    mqttUrl: env.MQTT_URL ?? 'mqtt://127.0.0.1:1883',
    mqttLogin: serviceMqttLogin(MqttService.Gateway, env),
    brokerAccess: brokerAccessConfig(env),
    mqttCredentialSecret: env.MQTT_CREDENTIAL_SECRET || undefined,
    redisPrefix: env.REDIS_PREFIX ?? 'sc:',
    sessionTtlSeconds: int(env.SESSION_TTL_HOURS, 12) * 3600,
    dispatchTtlSeconds: int(env.DISPATCH_TTL_SECONDS, 60),
    pushFrameMs: Math.max(1, int(env.PUSH_FRAME_MS, 50)),
    presenceGraceMs: Math.max(0, int(env.PRESENCE_GRACE_MS, 15_000)),
    consoleOrigin,
    allowedHosts: allowedHosts(env.ALLOWED_HOSTS, consoleOrigin),
    uploadDir: env.UPLOAD_DIR ?? 'var/uploads',
    media: {
      linkSecret: env.MEDIA_LINK_SECRET || DEV_MEDIA_LINK_SECRET,
      linkSecretIsDefault: !env.MEDIA_LINK_SECRET,
      linkTtlSeconds: Math.max(60, int(env.MEDIA_LINK_TTL_SECONDS, 900)),
      linkBaseUrl,
      uploadBaseUrl: (env.MEDIA_UPLOAD_BASE_URL || onPort(linkBaseUrl, uploadPort)).replace(/\/+$/, ''),
      ffprobePath: env.FFPROBE_PATH || 'ffprobe',
      ffmpegPath: env.FFMPEG_PATH || 'ffmpeg',
    },
    importConcurrency: Math.max(1, int(env.IMPORT_CONCURRENCY, 2)),
    webDist: env.WEB_DIST ?? 'apps/web/dist',
    login: {
      maxFailuresPerUser: int(env.LOGIN_MAX_FAILURES_PER_USER, 10),
      maxFailuresPerIp: int(env.LOGIN_MAX_FAILURES_PER_IP, 100),
      windowSeconds: int(env.LOGIN_WINDOW_SECONDS, 15 * 60),
    },
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    accessCache: env.ACCESS_CACHE !== 'off',
    defaultPlace: {
      latitude: int(env.SCHEDULE_DEFAULT_LATITUDE, 22.5431),
      longitude: int(env.SCHEDULE_DEFAULT_LONGITUDE, 114.0579),
      timeZone: env.SCHEDULE_DEFAULT_TIME_ZONE || 'Asia/Shanghai',
    },
    video: {
      serviceUrls: (env.VIDEO_SERVICE_URLS || 'http://127.0.0.1:8095')
        .split(',')
        .map((u) => u.trim().replace(/\/+$/, ''))
        .filter(Boolean),
      linkTtlSeconds: Math.max(60, int(env.VIDEO_LINK_TTL_SECONDS, 600)),
      secretKey: deviceSecretKey(env).key,
      secretKeyIsDefault: deviceSecretKey(env).isDefault,
    },
    version: env.npm_package_version ?? '0.1.0',
  };
}

export function parseTrustProxy(value: string | undefined): false | number | string[] {
  const text = value?.trim() ?? '';
  if (!text || text === 'false' || text === '0') return false;
  if (/^\d+$/.test(text)) return Number(text);
  if (text === 'true') throw new Error('TRUST_PROXY must be the number of proxies in front of the gateway or their addresses, not "true"');
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

export { redactUrl } from '@sc/database';

function brokerAccessConfig(env: NodeJS.ProcessEnv): BrokerAccessConfig | null {
  const secret = env.MQTT_CREDENTIAL_SECRET;
  const hookPort = int(env.MQTT_HOOK_PORT, 0);
  if (!secret || (!env.MQTT_BROKER_ACCESS_DIR && !hookPort)) return null;
  if (hookPort && (env.MQTT_HOOK_TOKEN ?? '').length < 16)
    throw new Error('MQTT_HOOK_PORT needs MQTT_HOOK_TOKEN (at least 16 characters): the broker sends it with every login it asks about');
  return {
    dir: env.MQTT_BROKER_ACCESS_DIR || undefined,
    pidFile: env.MQTT_BROKER_PID_FILE || undefined,
    secret,
    hook: hookPort ? { port: hookPort, host: env.MQTT_HOOK_HOST ?? '0.0.0.0', token: env.MQTT_HOOK_TOKEN! } : undefined,
    emqx:
      env.EMQX_API_URL && env.EMQX_API_KEY && env.EMQX_API_SECRET
        ? { url: env.EMQX_API_URL, key: env.EMQX_API_KEY, secret: env.EMQX_API_SECRET }
        : undefined,
  };
}
