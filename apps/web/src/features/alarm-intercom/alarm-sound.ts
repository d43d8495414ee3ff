/**
 * The alarm's sound, made by the browser (Web Audio): no file to download or to fail. A press sounds two high tones;
 * a call ringing the agent sounds a ring every two seconds until it is answered, rejected or goes elsewhere. A browser
 * that allows no sound before the user has touched the page (autoplay rules) stays silent; the console has been
 * touched at sign-in, so it sounds.
 */
let context: AudioContext | null = null;

function audio(): AudioContext | null {
  if (typeof window === 'undefined' || !('AudioContext' in window)) return null;
  context ??= new AudioContext();
  if (context.state === 'suspended') void context.resume().catch(() => undefined);
  return context;
}

/** Tones of `hz` at `times` (seconds from now), each `length` long. */
function tones(hz: number, times: readonly number[], length: number): void {
  const ctx = audio();
  if (!ctx) return;
  for (const at of times) {
    const oscillator = ctx.createOscillator();
    const gain = ctx.createGain();
    oscillator.type = 'square';
    oscillator.frequency.value = hz;
    gain.gain.setValueAtTime(0.08, ctx.currentTime + at);
    gain.gain.setValueAtTime(0, ctx.currentTime + at + length);
    oscillator.connect(gain).connect(ctx.destination);
    oscillator.start(ctx.currentTime + at);
    oscillator.stop(ctx.currentTime + at + length);
  }
}

/** A press came in. */
export function soundPress(): void {
  tones(1320, [0, 0.25], 0.18);
}

/** Starts ringing (every two seconds); answers the function that stops it. */
export function startRinging(): () => void {
  const ring = () => tones(880, [0, 0.12, 0.24, 0.36], 0.08);
  ring();
  const timer = window.setInterval(ring, 2000);
  return () => window.clearInterval(timer);
}
