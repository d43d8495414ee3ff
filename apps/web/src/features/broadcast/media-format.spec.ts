import { formatBitrate, formatBytes, formatDuration, formatSampleRate } from './media-format';

describe('media figures', () => {
  it('shows durations as m:ss and h:mm:ss', () => {
    expect(formatDuration(3.03)).toBe('0:03');
    expect(formatDuration(59.6)).toBe('1:00');
    expect(formatDuration(754)).toBe('12:34');
    expect(formatDuration(3723)).toBe('1:02:03');
  });

  it('shows sizes, bitrates and sample rates with the spec suffixes', () => {
    expect(formatBytes(24494)).toBe('24.49kB');
    expect(formatBytes(52428800)).toBe('52.43MB');
    expect(formatBitrate(64000)).toBe('64kbps');
    expect(formatSampleRate(44100)).toBe('44.1kHz');
    expect(formatSampleRate(48000)).toBe('48kHz');
  });
});
