import { shardOf } from './video-worker';

describe('video worker shards', () => {
  it('is the only one by default, and takes its index from the environment or its host name', () => {
    expect(shardOf({})).toEqual({ index: 0, of: 1 });
    expect(shardOf({ VIDEO_SHARDS: '3', VIDEO_SHARD_INDEX: '2' })).toEqual({ index: 2, of: 3 });
    expect(shardOf({ VIDEO_SHARDS: '2', HOSTNAME: 'worker-video-1' })).toEqual({ index: 1, of: 2 });
  });

  it('refuses an index outside the shards (two workers would probe and stream the same cameras, others none)', () => {
    expect(() => shardOf({ VIDEO_SHARDS: '2', VIDEO_SHARD_INDEX: '2' })).toThrow('VIDEO_SHARD_INDEX must be 0 to 1, not 2');
    expect(() => shardOf({ VIDEO_SHARDS: '2', HOSTNAME: 'worker-video-5' })).toThrow();
    // Neither an index nor a host name with an ordinal: every replica would take the first shard.
    expect(() => shardOf({ VIDEO_SHARDS: '2', HOSTNAME: 'video' })).toThrow('set VIDEO_SHARD_INDEX');
  });
});
