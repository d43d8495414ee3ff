import { topicMatches } from './mqtt-connection';

describe('topic filters', () => {
  it('matches single-level and multi-level wildcards', () => {
    expect(topicMatches('city/v1/lamp/+/ack'.split('/'), 'city/v1/lamp/L-1/ack')).toBe(true);
    expect(topicMatches('city/v1/lamp/+/ack'.split('/'), 'city/v1/lamp/L-1/state')).toBe(false);
    expect(topicMatches('city/v1/lamp/+/ack'.split('/'), 'city/v1/lamp/L-1/ack/x')).toBe(false);
    expect(topicMatches('city/#'.split('/'), 'city/v1/lamp/L-1/ack')).toBe(true);
  });
});
