import type { RTCIceServer } from 'werift';

/** Where a voice peer gathers its candidates and whom it asks for more (VOICE_ICE_SERVERS, VOICE_PORT_RANGE). */
export interface VoicePeerOptions {
  iceServers?: RTCIceServer[];
  /** UDP ports its ICE may use, for a firewall or a pod that publishes a range. */
  portRange?: [number, number];
  /** Addresses to offer besides the interfaces' own (a node's public address). */
  additionalHostAddresses?: string[];
}

/**
 * The voice peers' settings from the environment: VOICE_ICE_SERVERS (a JSON array of RTCIceServer, a TURN server such
 * as coturn where browsers cannot reach the worker directly), VOICE_PORT_RANGE (`min-max`, the UDP ports to use) and
 * VOICE_HOST_ADDRESSES (comma-separated addresses to offer besides the interfaces', a node's public one).
 */
export function voicePeerOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): VoicePeerOptions {
  const options: VoicePeerOptions = { iceServers: iceServersFromEnv(env) };
  const range = /^(\d{1,5})-(\d{1,5})$/.exec(env.VOICE_PORT_RANGE ?? '');
  if (range && Number(range[1]) <= Number(range[2])) options.portRange = [Number(range[1]), Number(range[2])];
  const hosts = (env.VOICE_HOST_ADDRESSES ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  if (hosts.length > 0) options.additionalHostAddresses = hosts;
  return options;
}

/** VOICE_ICE_SERVERS: a JSON array of `{ urls, username?, credential? }`; empty or unreadable, none. */
export function iceServersFromEnv(env: NodeJS.ProcessEnv = process.env): RTCIceServer[] {
  try {
    const parsed: unknown = JSON.parse(env.VOICE_ICE_SERVERS || '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((s): s is RTCIceServer => typeof s === 'object' && s !== null && (typeof s.urls === 'string' || Array.isArray(s.urls)));
  } catch {
    return [];
  }
}

/** A browser asking for a call's voice, as the gateway publishes it (`{prefix}voice:join`). */
export interface VoiceJoinMessage {
  requestId: string;
  callId: string;
  userId: number;
  sdp: string;
}

/** The worker's answer on `{prefix}voice:reply:{requestId}`: the bridge's SDP, or why there is none. */
export type VoiceJoinReply = { sdp: string } | { error: 'alarmVoiceColumnSilent' | 'alarmCallNotConnected' | 'alarmVoiceUnavailable' };

/** The Redis channels and keys between the gateways and the alarm workers for a call's voice. */
export const voiceChannels = {
  join: (prefix: string) => `${prefix}voice:join`,
  reply: (prefix: string, requestId: string) => `${prefix}voice:reply:${requestId}`,
  owner: (prefix: string, callId: string) => `${prefix}voice:owner:${callId}`,
};
