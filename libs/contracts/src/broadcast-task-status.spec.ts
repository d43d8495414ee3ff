import { immediateListEnds, immediateTimeStatus, taskWireId } from './broadcast-task-status';
import { PlaybackMode, TaskTimeStatus } from './statuses';

describe('immediate broadcasts: time status', () => {
  const sent = '2026-03-01T10:00:00.000Z';
  const task = {
    createdAt: sent,
    media: [
      { mediaId: 1, title: 'A', durationMs: 20_000 },
      { mediaId: 2, title: 'B', durationMs: 10_000 },
    ],
    playbackMode: PlaybackMode.Normal,
    stoppedAt: null,
  };
  const at = (seconds: number) => new Date(Date.parse(sent) + seconds * 1000);

  it('is in progress while its list plays once from its sending, then ended', () => {
    expect(immediateListEnds(task)).toBe(Date.parse(sent) + 30_000);
    expect(immediateTimeStatus(task, at(0), 0)).toBe(TaskTimeStatus.InProgress);
    expect(immediateTimeStatus(task, at(29.999), 0)).toBe(TaskTimeStatus.InProgress);
    expect(immediateTimeStatus(task, at(30), 0)).toBe(TaskTimeStatus.Ended);
  });

  it('stays in progress while a terminal still plays it, and for ever when it cycles', () => {
    expect(immediateTimeStatus(task, at(45), 1)).toBe(TaskTimeStatus.InProgress);
    const cycling = { ...task, playbackMode: PlaybackMode.ListCycle };
    expect(immediateListEnds(cycling)).toBeNull();
    expect(immediateTimeStatus(cycling, at(86_400), 0)).toBe(TaskTimeStatus.InProgress);
    expect(immediateTimeStatus({ ...task, playbackMode: PlaybackMode.Random }, at(86_400), 0)).toBe(TaskTimeStatus.InProgress);
  });

  it('has ended once stopped, whatever still plays', () => {
    const stopped = { ...task, playbackMode: PlaybackMode.ListCycle, stoppedAt: at(5).toISOString() };
    expect(immediateTimeStatus(stopped, at(6), 3)).toBe(TaskTimeStatus.Ended);
  });

  it('names a task on the terminals as the device contract does', () => {
    expect(taskWireId(42)).toBe('task-42');
  });
});
