import { useCallback, useEffect, useRef, useState } from 'react';
import { Badge, Button, Group, Loader, Progress, Stack, Text } from '@mantine/core';
import { IconMicrophone, IconMicrophoneOff, IconRefresh, IconVolume } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { voiceConfig, voiceJoin } from './api';
import { browserVoiceEnvironment, lastingProblem, startVoice, VOICE_CONNECTING, type VoiceSession, type VoiceStatus } from './voice-session';

export interface CallVoice {
  status: VoiceStatus;
  muted: boolean;
  setMuted(muted: boolean): void;
  /** Joins the voice again (after a failure). */
  reconnect(): void;
  /** The microphone's stream (for its level) and the column's (to play), while there are. */
  local: MediaStream | null;
  remote: MediaStream | null;
}

/**
 * The voice of the agent's connected call, started as soon as the call is shown connected (answered here, or after a
 * reload) and ended when it is no longer (callId null, or the panel gone): the peer connection closed, the microphone
 * stopped. Mute keeps across a reconnect.
 */
export function useCallVoice(callId: string | null): CallVoice {
  const [status, setStatus] = useState<VoiceStatus>(VOICE_CONNECTING);
  const [local, setLocal] = useState<MediaStream | null>(null);
  const [remote, setRemote] = useState<MediaStream | null>(null);
  const [muted, setMutedState] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const session = useRef<VoiceSession | null>(null);
  const mutedRef = useRef(false);

  useEffect(() => {
    if (!callId) return undefined;
    const env = browserVoiceEnvironment({ config: voiceConfig, join: voiceJoin });
    const current = startVoice(callId, env, { status: setStatus, local: setLocal, remote: setRemote }, { muted: mutedRef.current });
    session.current = current;
    return () => {
      current.stop();
      if (session.current === current) session.current = null;
      setLocal(null);
      setRemote(null);
    };
  }, [callId, attempt]);

  const setMuted = useCallback((value: boolean) => {
    mutedRef.current = value;
    setMutedState(value);
    session.current?.setMuted(value);
  }, []);
  const reconnect = useCallback(() => {
    setStatus(VOICE_CONNECTING);
    setAttempt((n) => n + 1);
  }, []);
  return { status, muted, setMuted, reconnect, local, remote };
}

/** The microphone's loudness, 0 to 1 (−60 dB to 0 dB), ten times a second: the agent sees it is heard. */
function useMicLevel(stream: MediaStream | null): number {
  const [level, setLevel] = useState(0);
  useEffect(() => {
    if (!stream || typeof window === 'undefined' || typeof window.AudioContext !== 'function') return undefined;
    let context: AudioContext;
    try {
      context = new AudioContext();
    } catch {
      return undefined;
    }
    const analyser = context.createAnalyser();
    analyser.fftSize = 512;
    const source = context.createMediaStreamSource(stream);
    source.connect(analyser);
    void context.resume().catch(() => undefined);
    const samples = new Float32Array(analyser.fftSize);
    const timer = window.setInterval(() => {
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const sample of samples) sum += sample * sample;
      const rms = Math.sqrt(sum / samples.length);
      setLevel(rms > 0 ? Math.min(1, Math.max(0, (20 * Math.log10(rms) + 60) / 60)) : 0);
    }, 100);
    return () => {
      window.clearInterval(timer);
      source.disconnect();
      void context.close().catch(() => undefined);
      setLevel(0);
    };
  }, [stream]);
  return level;
}

/**
 * The voice in the call panel: its state (connecting, talking with the microphone's level, failed with why and
 * Reconnect voice), Mute, and the column's voice playing. A browser that holds the sound back (autoplay rules, after a
 * reload nothing was clicked yet) gets a button to let it play.
 */
export function CallVoicePanel({ callId }: { callId: string }) {
  const { t } = useTranslation();
  const voice = useCallVoice(callId);
  const { state, problem, message } = voice.status;
  const level = useMicLevel(state === 'talking' ? voice.local : null);
  const audio = useRef<HTMLAudioElement>(null);
  const [blocked, setBlocked] = useState(false);

  useEffect(() => {
    const element = audio.current;
    if (!element) return;
    element.srcObject = voice.remote;
    setBlocked(false);
    if (voice.remote) element.play().catch((error: unknown) => setBlocked((error as { name?: string })?.name === 'NotAllowedError'));
  }, [voice.remote]);

  const reason = state === 'failed' ? (problem === 'refused' && message) || t(`alarmIntercom:voice.problem.${problem ?? 'setup'}`) : null;

  return (
    <Stack gap={4} data-testid="voice-state" data-state={state} data-problem={problem ?? undefined}>
      <Group gap="xs" justify="space-between" wrap="nowrap">
        <Group gap={6} wrap="nowrap">
          {state === 'connecting' && (
            <>
              <Loader size={14} />
              <Text size="xs">{t('alarmIntercom:voice.connecting')}</Text>
            </>
          )}
          {state === 'talking' && (
            <>
              <Badge variant="light" color="green" leftSection={<IconMicrophone size={12} />}>
                {t('alarmIntercom:voice.talking')}
              </Badge>
              <Progress
                value={voice.muted ? 0 : Math.round(level * 100)}
                w={64}
                size="sm"
                color="green"
                transitionDuration={80}
                aria-label={t('alarmIntercom:voice.level')}
                data-testid="voice-level"
              />
            </>
          )}
          {state === 'failed' && (
            <Badge variant="light" color="red">
              {t('alarmIntercom:voice.failed')}
            </Badge>
          )}
        </Group>
        <Button
          size="compact-xs"
          variant={voice.muted ? 'filled' : 'default'}
          color={voice.muted ? 'red' : undefined}
          leftSection={voice.muted ? <IconMicrophoneOff size={14} /> : <IconMicrophone size={14} />}
          onClick={() => voice.setMuted(!voice.muted)}
          aria-pressed={voice.muted}
          data-testid="voice-mute"
          data-muted={voice.muted}
        >
          {voice.muted ? t('alarmIntercom:voice.unmute') : t('alarmIntercom:voice.mute')}
        </Button>
      </Group>
      {reason && (
        <Text size="xs" c="red" data-testid="voice-problem">
          {reason}
        </Text>
      )}
      {state === 'failed' && !lastingProblem(problem) && (
        <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} onClick={voice.reconnect} data-testid="voice-reconnect">
          {t('alarmIntercom:voice.reconnect')}
        </Button>
      )}
      {blocked && (
        <Button
          size="xs"
          variant="light"
          color="orange"
          leftSection={<IconVolume size={14} />}
          onClick={() =>
            void audio.current
              ?.play()
              .then(() => setBlocked(false))
              .catch(() => undefined)
          }
          data-testid="voice-play"
        >
          {t('alarmIntercom:voice.playBlocked')}
        </Button>
      )}
      <audio ref={audio} autoPlay data-testid="voice-remote-audio" />
    </Stack>
  );
}
