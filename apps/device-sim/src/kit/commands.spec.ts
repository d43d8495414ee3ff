import { DeviceFamily, MqttService, type CommandMessage, type FamilyDeclaration } from '@sc/contracts';
import { CommandReader, RecentResults } from './commands';

/** A family declared only here: the reader needs nothing but a declaration. */
const BELL: FamilyDeclaration = {
  family: DeviceFamily.Alarm,
  title: 'Bell',
  deviceType: null,
  table: 'bell',
  worker: MqttService.WorkerLighting,
  queue: null,
  job: null,
  actions: {},
  eventRoles: [],
  liveFields: [],
  reports: {},
  commands: {
    ring: {
      description: 'Ring a number of times.',
      params: { type: 'object', required: ['times'], additionalProperties: false, properties: { times: { type: 'integer', minimum: 1 } } },
    },
  },
  heartbeatSeconds: 60,
};
type BellCommand = CommandMessage<'ring', { times: number }>;

const later = new Date(Date.now() + 60_000).toISOString();
const json = (body: unknown) => JSON.stringify(body);

describe('CommandReader', () => {
  const reader = new CommandReader<BellCommand>(BELL, (command) => command.params.times <= 3);

  it('takes a command whose params match the declared schema and pass the family’s own check', () => {
    expect(reader.read(json({ id: 'a', type: 'ring', params: { times: 2 }, expiresAt: later }))).toEqual({
      kind: 'command',
      command: { id: 'a', type: 'ring', params: { times: 2 }, expiresAt: later },
      expiresAtMs: Date.parse(later),
    });
  });

  it('answers a readable id with a bad-command verdict when the rest is wrong', () => {
    for (const body of [
      { id: 'x', type: 'ring', params: { times: 0 }, expiresAt: later },
      { id: 'x', type: 'ring', params: { times: 2, loud: true }, expiresAt: later },
      { id: 'x', type: 'ring', params: { times: 4 }, expiresAt: later },
      { id: 'x', type: 'toString', params: {}, expiresAt: later },
      { id: 'x', type: 'ring', params: { times: 1 }, expiresAt: 'tomorrow' },
      { id: 'x', type: 'ring', params: { times: 1 } },
    ]) {
      expect(reader.read(json(body))).toEqual({ kind: 'invalid', id: 'x' });
    }
  });

  it('cannot answer payloads without a usable id', () => {
    for (const payload of ['not json', '[]', 'null', '{"type":"ring"}', '{"id":""}', '{"id":42}', json({ id: 'x'.repeat(200) })]) {
      expect(reader.read(payload)).toEqual({ kind: 'unreadable' });
    }
  });

  it('tells whether params would do for a command type', () => {
    expect(reader.takes('ring', { times: 1 })).toBe(true);
    expect(reader.takes('ring', { times: 9 })).toBe(false);
    expect(reader.takes('schedule', {})).toBe(false);
  });
});

describe('RecentResults', () => {
  it('returns the first answer for an id it has seen', () => {
    const recent = new RecentResults();
    recent.remember({ id: 'a', ok: true }, 10_000, 0);
    recent.remember({ id: 'b', ok: false, error: 'driver fault' }, 10_000, 0);
    expect(recent.get('a')).toEqual({ id: 'a', ok: true });
    expect(recent.get('b')).toEqual({ id: 'b', ok: false, error: 'driver fault' });
    expect(recent.get('c')).toBeUndefined();
  });

  it('forgets ids whose commands have expired, and stays within its capacity', () => {
    const recent = new RecentResults(3);
    recent.remember({ id: 'old', ok: true }, 1_000, 0);
    recent.remember({ id: 'live', ok: true }, 50_000, 500);
    recent.remember({ id: 'new', ok: true }, 60_000, 2_000);
    expect(recent.get('old')).toBeUndefined();
    expect(recent.get('live')).toBeDefined();
    for (let i = 0; i < 10; i++) recent.remember({ id: `n${i}`, ok: true }, 60_000, 2_000);
    expect(recent.size).toBe(3);
    expect(recent.get('n9')).toBeDefined();
  });
});
